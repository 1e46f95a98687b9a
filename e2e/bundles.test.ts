/**
 * Client bundles, measured on the production build in Chromium: the sign-in pages need at most 120 KiB
 * of compressed JavaScript; the bidder's sign-in page fetches neither portal's pages (the admin's least
 * of all); the admin's pages arrive once an admin opens one, and a portal chunk that a deploy removed
 * (a 404) shows a message with a Reload instead of a blank page.
 *
 * Sizes are what the server sends a browser that accepts brotli: each file's `.br` beside it in
 * client/dist (the build's precompress step), or, for a file too small to have one, its gzip size.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginViaUi, shot, step, useE2E } from './browser.js';
import { ROOT } from './server.js';

const DIST = path.join(ROOT, 'client', 'dist');
const BUDGET = 120 * 1024;

const e2e = useE2E();

interface ManifestChunk { file: string; isEntry?: boolean; imports?: string[] }
type Manifest = Record<string, ManifestChunk>;

function manifest(): Manifest {
  const file = path.join(DIST, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: client/vite.config.ts sets build.manifest`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
}

/** The files a manifest entry runs: its own and those of its static imports, recursively. */
function filesOf(m: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = m[key];
  if (!chunk) throw new Error(`manifest has no ${key}, so it is not a chunk of its own (client/src/app/router.tsx loads each portal lazily); it has ${Object.keys(m).join(', ')}`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) filesOf(m, dep, into);
  return into;
}

const minus = (a: Set<string>, ...others: Set<string>[]) => new Set([...a].filter((f) => !others.some((o) => o.has(f))));

/** What the bidder's and the admin's portal chunks need beyond what the entry already runs. */
function portalFiles() {
  const m = manifest();
  const entryKey = Object.keys(m).find((k) => m[k]!.isEntry);
  if (!entryKey) throw new Error('manifest has no entry');
  const entry = filesOf(m, entryKey);
  const bidder = filesOf(m, 'src/app/bidder-portal.tsx');
  const admin = filesOf(m, 'src/app/admin-portal.tsx');
  return {
    bidderOnly: minus(bidder, entry, admin),
    adminOnly: minus(admin, entry, bidder),
    /** Either portal's code (what the sign-in pages must not fetch). */
    portals: minus(new Set([...bidder, ...admin]), entry),
    bidderEntry: m['src/app/bidder-portal.tsx']!.file,
    adminEntry: m['src/app/admin-portal.tsx']!.file,
  };
}

/** Bytes on the wire for a file of the build: its brotli file, else its gzip size (files under 1 KiB have no .br). */
function compressedSize(file: string): number {
  const full = path.join(DIST, file);
  if (fs.existsSync(`${full}.br`)) return fs.statSync(`${full}.br`).size;
  return zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
}

/** Records every JavaScript response of `page` (scripts, modulepreloads, dynamic imports) as its path under client/dist. */
function recordScripts(page: Page) {
  const files = new Set<string>();
  const strays: string[] = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    const type = res.headers()['content-type'] ?? '';
    if (!url.pathname.endsWith('.js') && !type.includes('javascript')) return;
    const file = url.pathname.replace(/^\//, '');
    if (res.ok() && fs.existsSync(path.join(DIST, file))) files.add(file);
    else strays.push(`${res.status()} ${url.pathname}`);
  });
  return {
    files,
    strays,
    reset: () => { files.clear(); strays.length = 0; },
  };
}

/** Prints what `label` fetched, file by file, and returns the total compressed size. */
function report(label: string, files: Set<string>): number {
  const sizes = [...files].sort().map((f) => [f, compressedSize(f)] as const);
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  console.log(`[bundles] ${label}: ${(total / 1024).toFixed(1)} KiB of compressed JavaScript in ${sizes.length} files\n${
    sizes.map(([f, size]) => `    ${(size / 1024).toFixed(1).padStart(6)} KiB  ${f}`).join('\n')}`);
  return total;
}

describe('client bundles', () => {
  it('each sign-in page needs at most 120 KiB of compressed JavaScript and neither portal’s pages', async () => {
    const { page } = e2e;
    const scripts = recordScripts(page);

    for (const portal of ['user', 'admin'] as const) {
      await step(`/${portal}/login`, async () => {
        scripts.reset();
        await page.goto(`/${portal}/login`, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { name: portal === 'user' ? 'User Login' : 'Admin Login', level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(scripts.strays).toEqual([]);
        expect(scripts.files.size).toBeGreaterThan(0);
        expect(report(`/${portal}/login`, scripts.files), `the budget is ${BUDGET} bytes`).toBeLessThanOrEqual(BUDGET);

        const { portals, adminOnly, bidderOnly } = portalFiles();
        expect(adminOnly.size).toBeGreaterThan(0);
        expect(bidderOnly.size).toBeGreaterThan(0);
        expect([...scripts.files].filter((f) => adminOnly.has(f))).toEqual([]);
        expect([...scripts.files].filter((f) => portals.has(f))).toEqual([]);
        await shot(page, `bundles-${portal}-login`);
      });
    }
  });

  it('an admin’s pages arrive once an admin opens one, without the bidder’s', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin({ name: 'Meera Pillai' });
    const { adminOnly, bidderOnly, adminEntry } = portalFiles();
    const scripts = recordScripts(page);

    await step('the sign-in page, then the dashboard after signing in', async () => {
      await loginViaUi(page, 'admin', admin.username, admin.password);
      await page.getByRole('heading', { name: 'Welcome, Meera Pillai' }).waitFor();
      await page.getByRole('navigation', { name: 'Admin Portal' }).waitFor();
    });
    expect(scripts.strays).toEqual([]);
    expect(scripts.files.has(adminEntry)).toBe(true);
    expect([...adminOnly].filter((f) => !scripts.files.has(f))).toEqual([]);
    expect([...scripts.files].filter((f) => bidderOnly.has(f))).toEqual([]);
    report('/admin/login, then /admin/dashboard', scripts.files);
    await shot(page, 'bundles-admin-dashboard');
  });

  it('a portal chunk gone after a deploy (404) shows why and a Reload that brings the page', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin();
    const { adminEntry } = portalFiles();
    // The tab still runs the old build; the server no longer has this file.
    await page.route(`**/${adminEntry}`, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"code":"NOT_FOUND"}' }));

    await step('signing in lands on the message, not a blank page', async () => {
      await loginViaUi(page, 'admin', admin.username, admin.password);
      const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
      await alert.waitFor();
      await alert.getByRole('button', { name: 'Reload' }).waitFor();
      await shot(page, 'bundles-chunk-failed');
    });

    await step('Reload, the file back, opens the dashboard', async () => {
      await page.unroute(`**/${adminEntry}`);
      await page.getByRole('button', { name: 'Reload' }).click();
      await page.getByRole('heading', { name: 'Welcome, Ravi Kumar' }).waitFor();
    });
  });
});
