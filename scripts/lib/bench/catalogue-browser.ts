/**
 * The page figures of `npm run bench -- --catalogue N` (scripts/bench-catalogue.ts): Browse in Chromium,
 * signed in as the bidder, from navigation to the first auction card, its JS heap, the bytes it
 * transferred and the header search box.
 */
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { COMMON_WORD } from '../catalogue-data.js';
import { round } from './catalogue-report.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface PageFigures { firstCardMs: number; heapMb: number; transferKib: number; apiKib: number; cards: number; searchMs: number | null; searchNote: string | null }

/** Browse in Chromium, signed in as the bidder through the login form. */
export async function pageFigures(base: string, bidder: { username: string; password: string }, log: (m: string) => void): Promise<PageFigures> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`Chromium was not found at ${CHROMIUM_PATH} (set CHROMIUM_PATH, or pass --no-browser)`);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  try {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 }, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
    context.setDefaultTimeout(300_000);
    context.setDefaultNavigationTimeout(300_000);
    const page = await context.newPage();
    await page.goto('/user/login');
    await page.getByLabel('Username').fill(bidder.username);
    await page.getByLabel('Password').fill(bidder.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL('**/user/dashboard');
    // The dashboard's own reads finish first: Browse is measured alone, not queued behind them.
    await page.waitForLoadState('networkidle');
    // A fresh document for Browse: what it costs from navigation on, with the session already stored.
    await page.goto('about:blank');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable');
    // A cold cache: the page's every byte counts, its scripts and styles as well as the API's answers.
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const urls = new Map<string, string>();
    let transferred = 0;
    let apiBytes = 0;
    cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string } }) => { urls.set(e.requestId, e.request.url); });
    cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
      transferred += e.encodedDataLength;
      if (new URL(urls.get(e.requestId) ?? base).pathname.startsWith('/api/')) apiBytes += e.encodedDataLength;
    });
    const t0 = performance.now();
    await page.goto('/user/auctions', { waitUntil: 'commit' });
    await page.locator('article.auc-card').first().waitFor({ state: 'visible' });
    const firstCardMs = Math.round(performance.now() - t0);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(1000);
    const cards = await page.locator('article.auc-card').count();
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    const heapMb = round(heap / 1024 / 1024, 1);
    const transferKib = Math.round(transferred / 1024);
    const apiKib = Math.round(apiBytes / 1024);
    log(`Browse: first card ${firstCardMs} ms, ${cards} cards, JS heap ${heapMb} MB, ${transferKib} KiB transferred (${apiKib} KiB from the API)`);

    const box = page.locator('header [role=combobox]').first();
    let searchMs: number | null = null;
    let searchNote: string | null = null;
    if ((await box.count()) === 0) {
      searchNote = 'no search box in the header';
    } else {
      await box.click();
      const s0 = performance.now();
      await box.pressSequentially(COMMON_WORD);
      await page.locator('[role=option]').first().waitFor({ state: 'visible', timeout: 30_000 });
      searchMs = Math.round(performance.now() - s0);
    }
    log(`header search: ${searchMs === null ? searchNote : `${searchMs} ms to the first suggestion`}`);
    return { firstCardMs, heapMb, transferKib, apiKib, cards, searchMs, searchNote };
  } finally {
    await browser.close();
  }
}
