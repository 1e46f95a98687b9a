/**
 * The browser end-to-end harness: a real headless Chromium (playwright-core, the system browser) against
 * the real production server (`startServer()`), seed helpers that speak the HTTP API, and screenshots
 * at desktop and phone widths, each checked with axe-core (WCAG 2.x A/AA: no serious or critical
 * violation may remain; ./shots.ts, re-exported here).
 *
 *   const e2e = useE2E();                 // server + browser per file, fresh context and page per test
 *   const admin = await e2e.seed.admin();
 *   await loginViaUi(e2e.page, 'user', 'asha', 'secret1');
 *   await shot(e2e.page, 'dashboard');    // <tmp>/auction-e2e-shots/dashboard-1280.png and -375.png, axe at both
 *   await expectAccessible(e2e.page, 'dashboard'); // the axe check alone, at both widths
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startServer, type RunningServer } from './server.js';
import { SHOTS_DIR } from './shots.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];
export const DESKTOP = { width: 1280, height: 800 } as const;
/** How long a single UI expectation may take before the step fails. */
export const UI_TIMEOUT = 10_000;

// ---------------------------------------------------------------------------------------------------
// Browser

/** Launches the system Chromium. A missing browser is a failure with a clear message, never a skip. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM_PATH}. The end-to-end tests need it: install it with ` +
      '`apt-get install -y chromium` (CI does this) or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** A fresh profile (no storage, no cookies) with the product's locale and time zone. */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: DESKTOP,
    locale: 'en-IN',
    timezoneId: 'Asia/Kolkata',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(UI_TIMEOUT);
  context.setDefaultNavigationTimeout(20_000);
  return context;
}

// ---------------------------------------------------------------------------------------------------
// Seeding through the HTTP API

export interface Account {
  id: number;
  username: string;
  password: string;
  name: string;
  token: string;
}

export class SeedError extends Error {
  constructor(readonly status: number, readonly body: unknown, what: string) {
    super(`${what} → ${status} ${JSON.stringify(body)}`);
  }
}

/** A photo as a seller might take one: a coloured scene with a label, as PNG bytes (sharp renders the SVG). */
export async function makePhoto(label: string, colour: string, width = 1600, height = 1200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${colour}"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#ffffff" fill-opacity="0.25"/>
    <text x="50%" y="55%" font-family="sans-serif" font-size="${height / 8}" fill="#ffffff" text-anchor="middle">${label}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

let counter = 0;
/** A name no other seed in this process used: `prefix` + a short unique suffix (valid as id and username). */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).slice(-4)}${counter}`.toLowerCase();
}

/** A product as seeded: prices in rupees (docs/bidding.md#lot-pricing), all optional. */
export interface SeedProduct { id: string; name: string; description?: string; starting_price?: number; reserve_price?: number | null; buy_now_price?: number | null }
/** An auction's rules (docs/bidding.md): left out, the server's defaults. */
export interface SeedRules {
  increment_rule?: 'flat' | 'ladder' | 'custom'; increment_amount?: number; increment_tiers?: { below?: number | null; step: number }[];
  cancel_policy?: 'until_end' | 'strict'; soft_close_s?: number; max_extension_s?: number;
}

/** The seed helpers for one server. Every call goes through the public API with the right token. */
export function createSeed(baseUrl: string) {
  async function call<T>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${baseUrl}/api${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const data: unknown = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new SeedError(res.status, data, `${method} ${route}`);
    return data as T;
  }

  async function account(kind: 'user' | 'admin', options: { username?: string; password?: string; name?: string; mobile?: string }): Promise<Account> {
    const username = options.username ?? unique(kind === 'user' ? 'bidder' : 'admin');
    const password = options.password ?? 'secret123';
    const name = options.name ?? (kind === 'user' ? 'Asha Rao' : 'Ravi Kumar');
    const prefix = kind === 'user' ? '' : '/admin';
    const role = kind === 'admin' ? { role: 'admin' } : {};
    await call('POST', `${prefix}/register`, { name, username, password, mobile_number: options.mobile ?? '9876543210', ...role });
    const res = await call<{ token: string; user?: { id: number }; admin?: { id: number } }>('POST', `${prefix}/login`, { username, password, ...role });
    return { id: (res.user ?? res.admin)?.id ?? 0, username, password, name, token: res.token };
  }

  return {
    call,
    /** Registers and logs in a bidder. */
    user: (options: { username?: string; password?: string; name?: string; mobile?: string } = {}) => account('user', options),
    /** Registers and logs in an admin. */
    admin: (options: { username?: string; password?: string; name?: string; mobile?: string } = {}) => account('admin', options),
    /** Registers an account without logging in (for UI logins). */
    registerUser: (username: string, password: string, name = 'Asha Rao') =>
      call('POST', '/register', { name, username, password, mobile_number: '9876543210' }),

    product: (admin: Account, product: SeedProduct) =>
      call('POST', '/admin/product', { description: `${product.name}, in good condition`, ...product }, admin.token),

    /** An auction ending `endsInMs` from now, with its products created first. */
    auction: async (admin: Account, auction: { id: string; name: string; endsInMs: number; products: SeedProduct[]; rules?: SeedRules }) => {
      for (const p of auction.products) {
        await call('POST', '/admin/product', { description: `${p.name}, in good condition`, ...p }, admin.token);
      }
      const validUntil = new Date(Date.now() + auction.endsInMs).toISOString();
      await call('POST', '/admin/auction', { id: auction.id, name: auction.name, valid_until: validUntil, product_ids: auction.products.map((p) => p.id), ...auction.rules }, admin.token);
      return { id: auction.id, name: auction.name, validUntil, productIds: auction.products.map((p) => p.id) };
    },

    topUp: (user: Account, amount: number) =>
      call<{ wallet_balance: number }>('POST', '/wallet/topup', { amount }, user.token),
    register: (user: Account, auctionId: string) => call('POST', '/auctions/register', { auction_id: auctionId }, user.token),
    /** Places a bid; resolves with the server's answer or rejects with a SeedError (refusals too). */
    bid: (user: Account, productId: string, amount: number) =>
      call<{ highest_bid: number; wallet_balance: number; bid: { bid_id: number } }>('POST', '/bid', { product_id: productId, bid_amount: amount }, user.token),
    /** A maximum (proxy) bid: the server bids for `user` up to `max`. */
    maxBid: (user: Account, productId: string, max: number) =>
      call<{ highest_bid: number; leading: boolean; bid: { bid_id: number } }>('POST', '/bid', { product_id: productId, max_amount: max }, user.token),
    /** Uploads a photo to a product through the admin's upload route, as the product form sends it. */
    photo: async (admin: Account, productId: string, bytes: Buffer, fileName = 'photo.png') => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), fileName);
      const res = await fetch(`${baseUrl}/api/admin/products/${encodeURIComponent(productId)}/images`, {
        method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form,
      });
      const data: unknown = await res.json();
      if (res.status !== 201) throw new SeedError(res.status, data, `POST /admin/products/${productId}/images`);
      return data as { image: { id: number; url: string; thumb_url: string } };
    },
    balance: async (user: Account) => (await call<{ wallet_balance: number }>('POST', '/wallet', {}, user.token)).wallet_balance,
    userBids: (user: Account) => call<{ bid_id: number; product_id: string; amount: number; status: string; state: string }[]>('GET', '/user-bids', undefined, user.token),
  };
}

export type Seed = ReturnType<typeof createSeed>;

// ---------------------------------------------------------------------------------------------------
// UI helpers

/** Signs in through the login form of `portal` and waits for its dashboard. */
export async function loginViaUi(page: Page, portal: 'user' | 'admin', username: string, password: string): Promise<void> {
  await page.goto(`/${portal}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(`**/${portal}/dashboard`);
}

/** The path (and query) the page is on. */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** Waits until the page is on `pathname` (client-side navigations included). */
export async function waitForPath(page: Page, pathname: string, timeout = UI_TIMEOUT): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname, { timeout });
}

/** The four session keys (`token`, `admin_token`, `user`, `admin`), as stored in the page's localStorage. */
export async function storedSession(page: Page): Promise<Record<'token' | 'admin_token' | 'user' | 'admin', string | null>> {
  return page.evaluate(() => ({
    token: localStorage.getItem('token'),
    admin_token: localStorage.getItem('admin_token'),
    user: localStorage.getItem('user'),
    admin: localStorage.getItem('admin'),
  }));
}

/** The newest toast (role status in the toaster) containing `text`. */
export function toastWith(page: Page, text: string | RegExp) {
  return page.locator('.toaster [role="status"]').filter({ hasText: text }).last();
}

/** Closes every toast, so the next expectation cannot be met by an older one with the same text. */
export async function dismissToasts(page: Page): Promise<void> {
  for (const close of await page.locator('.toaster').getByRole('button', { name: 'Dismiss notification' }).all()) {
    await close.click().catch(() => undefined); // it may have timed out meanwhile
  }
  await page.locator('.toaster [role="status"]').first().waitFor({ state: 'detached' });
}

/** Runs one named step of a journey; a failure names the step. */
export async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new Error(`Step "${name}" failed: ${message}`, { cause: err });
  }
}

// ---------------------------------------------------------------------------------------------------
// Screenshots and accessibility (axe-core): ./shots.ts

export { AXE_FAILING_IMPACTS, AXE_TAGS, axeViolations, expectAccessible, formatAxe, shot, SHOT_WIDTHS, SHOTS_DIR, type AxeFinding } from './shots.js';

// ---------------------------------------------------------------------------------------------------
// Vitest wiring

export interface E2E {
  readonly server: RunningServer;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly seed: Seed;
  /** Absolute URL of a path on the server under test. */
  url(pathname: string): string;
}

/**
 * Registers the hooks of one test file: the production server and Chromium for the whole file, a new
 * browser context and page for every test (closed afterwards, with a screenshot when the test failed).
 */
export function useE2E(options: { env?: Record<string, string> } = {}): E2E {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let seed: Seed | undefined;
  let setupError: Error | undefined;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value !== undefined) return value;
    if (setupError) throw setupError;
    throw new Error(`e2e: ${what} is not ready (used outside a test?)`);
  };

  // A setup failure (no Chromium, a server that will not start) is rethrown by every test, so each one
  // FAILS with the reason instead of being reported as skipped.
  beforeAll(async () => {
    // The server first: seeding in a file's own beforeAll needs only the API, not the browser.
    try {
      server = await startServer(options.env);
      seed = createSeed(server.url);
      browser = await launchBrowser();
    } catch (err) {
      setupError = err instanceof Error ? err : new Error(String(err));
    }
  });

  afterAll(async () => {
    await browser?.close();
    if (server) {
      await server.stop('SIGKILL');
      server.cleanup();
    }
  });

  beforeEach(async () => {
    if (setupError) throw setupError;
    context = await newContext(need(browser, 'the browser'), need(server, 'the server').url);
    page = await context.newPage();
  });

  afterEach(async (ctx) => {
    if (page && ctx.task.result?.state === 'fail') {
      fs.mkdirSync(SHOTS_DIR, { recursive: true });
      const file = path.join(SHOTS_DIR, `FAILED-${ctx.task.name.replace(/[^a-z0-9_-]+/gi, '-').slice(0, 80)}.png`);
      await page.screenshot({ path: file, fullPage: true }).then(() => console.log(`[e2e] failure screenshot: ${file}`), () => undefined);
    }
    await context?.close();
    context = undefined;
    page = undefined;
  });

  return {
    get server() { return need(server, 'the server'); },
    get browser() { return need(browser, 'the browser'); },
    get context() { return need(context, 'the browser context'); },
    get page() { return need(page, 'the page'); },
    get seed() { return need(seed, 'the seed helpers'); },
    url: (pathname) => `${need(server, 'the server').url}${pathname}`,
  };
}
