/**
 * Screenshots at desktop and phone widths and the accessibility check (axe-core, WCAG 2.x A/AA: no
 * serious or critical violation may remain) that runs at each; re-exported by ./browser.ts, the harness.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type Page } from 'playwright-core';

/** Outside the repository, so screenshots never end up in a commit. */
export const SHOTS_DIR = path.join(os.tmpdir(), 'auction-e2e-shots');
export const SHOT_WIDTHS = [1280, 375] as const;

/** The WCAG 2.0 and 2.1 level A and AA rules: what `expectAccessible` runs. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
/** The impacts that fail a page; moderate and minor findings are printed, not failed. */
export const AXE_FAILING_IMPACTS: readonly string[] = ['serious', 'critical'];
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string; summary: string }[];
}

/** Lets media queries, layout and finite animations (fades, slide-ins) settle, as a reader would see the page. */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    const finite = document.getAnimations().filter((a) => {
      const end = a.effect?.getComputedTiming().endTime;
      return typeof end === 'number' && Number.isFinite(end);
    });
    await Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2000))]);
  });
}

/**
 * Runs axe-core on the whole document as it is now (at the current viewport) with the WCAG 2.x A/AA
 * rules and returns the violations. The source is evaluated through the DevTools protocol, which the
 * app's Content-Security-Policy (`script-src 'self'`) does not apply to, unlike an inline script tag.
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    type AxeResult = {
      violations: { id: string; impact?: string | null; help: string; helpUrl: string; nodes: { target: unknown[]; failureSummary?: string }[] }[];
    };
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.map((t) => JSON.stringify(t)).join(' → '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }));
  }, [...AXE_TAGS]);
}

/** One readable line per violation and per element it names (at most 5 each). */
export function formatAxe(findings: AxeFinding[]): string {
  return findings.map((v) => {
    const nodes = v.nodes.slice(0, 5).map((n) => `      ${n.target}${n.summary ? `: ${n.summary.slice(0, 300)}` : ''}`);
    if (v.nodes.length > 5) nodes.push(`      … and ${v.nodes.length - 5} more`);
    return [`  [${v.impact ?? 'unknown'}] ${v.id}: ${v.help} (${v.helpUrl})`, ...nodes].join('\n');
  }).join('\n');
}

async function checkAccessible(page: Page, label: string): Promise<void> {
  const findings = await axeViolations(page);
  const failing = findings.filter((v) => v.impact !== null && AXE_FAILING_IMPACTS.includes(v.impact));
  const others = findings.filter((v) => !failing.includes(v));
  if (others.length > 0) console.log(`[e2e] axe on ${label}: ${others.length} moderate/minor finding(s)\n${formatAxe(others)}`);
  if (failing.length > 0) {
    // The rule ids on the first line too: step() repeats only that line (the full list stays in the cause).
    throw new Error(`axe-core found ${failing.length} serious or critical accessibility violation(s) on ${label} (${failing.map((v) => v.id).join(', ')}):\n${formatAxe(failing)}`);
  }
}

function viewportFor(width: number) {
  return { width, height: width < 600 ? 812 : 800 };
}

/**
 * Fails unless axe-core finds no serious or critical WCAG 2.x A/AA violation on the current page at
 * 1280 and at 375 px wide (the widths `shot` captures); restores the viewport afterwards. The error
 * lists each violation with its rule, impact, help and the elements' selectors.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  try {
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize(viewportFor(width));
      await settle(page);
      await checkAccessible(page, `"${name}" at ${width} px`);
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
}

let announced = false;

/**
 * Saves full-page screenshots of the current page at 1280 and 375 px wide as
 * `<tmp>/auction-e2e-shots/<name>-<width>.png`, then restores the viewport. Returns the files.
 * At each width the page is also checked with axe-core as `expectAccessible` does (pass
 * `{ axe: false }` to skip that for a picture of a state that is not a page of its own).
 */
export async function shot(page: Page, name: string, options: { axe?: boolean } = {}): Promise<string[]> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  if (!announced) {
    console.log(`[e2e] screenshots: ${SHOTS_DIR}`);
    announced = true;
  }
  const original = page.viewportSize();
  const files: string[] = [];
  try {
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize(viewportFor(width));
      // Let media queries, layout and fades settle before capturing.
      await settle(page);
      const file = path.join(SHOTS_DIR, `${name.replace(/[^a-z0-9_-]+/gi, '-')}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      files.push(file);
      if (options.axe !== false) await checkAccessible(page, `"${name}" at ${width} px (screenshot ${file})`);
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
  return files;
}
