/** Test factories: an app on a fresh database, and accounts made through the real HTTP routes. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp, type BuildOptions } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import type { App } from '../context.js';
import { freshTestDatabase, sqliteConnection } from '../db/testing.js';

export const TEST_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export function testConfig(overrides: Partial<Config> = {}): Config {
  // A small pool: many test apps may be open at once against one PostgreSQL. Soft close off: the
  // spec's timing tests bid up to the last moment; the soft-close tests turn it on (softCloseS).
  // Password hashes at the lowest cost: the suites sign up thousands of accounts.
  return { ...loadConfig({}), databaseUrl: ':memory:', logLevel: 'silent', jwtSecret: TEST_SECRET, rateLimit: false, pgPool: 4, softCloseS: 0, passwordHashCost: 10, ...overrides };
}

/**
 * An app on a fresh database of the store this run tests (`TEST_STORE`, see db/testing.ts), unless
 * `overrides.databaseUrl` names one. Closing the app drops what it made.
 */
export async function makeApp(overrides: Partial<Config> = {}, options: BuildOptions = {}): Promise<App> {
  const fresh = overrides.databaseUrl === undefined ? freshTestDatabase() : null;
  const app = await buildApp(testConfig({ ...(fresh ? { databaseUrl: fresh.url } : {}), ...overrides }), options);
  if (fresh) app.addHook('onClose', () => fresh.drop());
  await app.ready();
  return app;
}

/** Plain SQL on the app's store (`?` placeholders; SQL both stores accept). */
export function sqlRows<T>(app: App, text: string, ...params: (string | number | boolean | null)[]): Promise<T[]> {
  return app.ctx.store.query<T>(text, params);
}

export async function sqlRow<T>(app: App, text: string, ...params: (string | number | boolean | null)[]): Promise<T | undefined> {
  return (await sqlRows<T>(app, text, ...params))[0];
}

/** A fresh folder for a file database; removed by the caller's `cleanup`. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-test-'));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

let seq = 0;
export const uniqueName = (prefix: string) => `${prefix}${process.pid}_${++seq}`;

export async function call(app: App, method: InjectOptions['method'], url: string, body?: unknown, token?: string): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
}

/** Registers and signs in a bidder; returns the token and the user. */
export async function signUpUser(app: App, username = uniqueName('user'), password = 'secret1') {
  const reg = await call(app, 'POST', '/api/register', { name: `Name ${username}`, username, password, mobile_number: '9876543210' });
  expect(reg.statusCode).toBe(201);
  const login = await call(app, 'POST', '/api/login', { username, password });
  expect(login.statusCode).toBe(200);
  const { token, user } = login.json<{ token: string; user: { id: number; username: string } }>();
  return { token, user, username, password };
}

export async function signUpAdmin(app: App, username = uniqueName('admin'), password = 'secret1') {
  const reg = await call(app, 'POST', '/api/admin/register', { name: `Admin ${username}`, username, password, mobile_number: '9876543210', role: 'admin' });
  expect(reg.statusCode).toBe(201);
  const login = await call(app, 'POST', '/api/admin/login', { username, password, role: 'admin' });
  expect(login.statusCode).toBe(200);
  const { token, admin } = login.json<{ token: string; admin: { id: number; username: string; is_owner: boolean } }>();
  return { token, admin, username, password };
}

/** Asserts the error shape (`{ error, message, code }` with a catalog code, shared/src/errors.ts) and returns the body. */
export function expectError(res: LightMyRequestResponse, status: number, code: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ error: string; message: string; code: string; field?: string }>();
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  expect(body.message).toBe(body.error);
  return body;
}

/** A clock tests can move: pass `clock.now` to makeApp and set `clock.t`. */
export function makeClock(start = Date.parse('2026-11-24T00:00:00.000Z')) {
  const clock = { t: start, now: () => clock.t, advance: (ms: number) => { clock.t += ms; } };
  return clock;
}

export const HOUR = 3_600_000;

/** Creates products through the API and returns their ids. */
export async function createProducts(app: App, adminToken: string, count = 1, prefix = uniqueName('P')) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-${i}`;
    const res = await call(app, 'POST', '/api/admin/product', { id, name: `Product ${id}`, description: `Description of ${id}` }, adminToken);
    expect(res.statusCode, res.body).toBe(201);
    ids.push(id);
  }
  return ids;
}

/** Creates an auction over new products; `endsIn` ms after the app's clock (`now`). */
export async function createAuction(app: App, adminToken: string, opts: { products?: number; endsIn?: number; now?: number; id?: string } = {}) {
  const productIds = await createProducts(app, adminToken, opts.products ?? 1);
  const id = opts.id ?? uniqueName('A');
  const validUntil = new Date((opts.now ?? Date.now()) + (opts.endsIn ?? 2 * HOUR)).toISOString();
  const res = await call(app, 'POST', '/api/admin/auction', { id, name: `Auction ${id}`, valid_until: validUntil, product_ids: productIds }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return { auctionId: id, productIds };
}

/** A bidder with money in the wallet, registered for the given auctions. */
export async function richBidder(app: App, rupees: number, auctionIds: string[] = []) {
  const u = await signUpUser(app);
  let left = rupees;
  while (left > 0) {
    const chunk = Math.min(left, 100_000);
    const res = await call(app, 'POST', '/api/wallet/topup', { amount: Math.max(chunk, 10) }, u.token);
    expect(res.statusCode, res.body).toBe(200);
    left -= Math.max(chunk, 10);
  }
  for (const auctionId of auctionIds) {
    const res = await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, u.token);
    expect(res.statusCode, res.body).toBe(200);
  }
  return u;
}

export async function bid(app: App, token: string, productId: string, amount: number) {
  return call(app, 'POST', '/api/bid', { product_id: productId, bid_amount: amount }, token);
}

export async function balanceOf(app: App, token: string): Promise<number> {
  return (await call(app, 'POST', '/api/wallet', {}, token)).json<{ wallet_balance: number }>().wallet_balance;
}

/** The money invariant and the structural rules behind it (docs/money.md#the-invariant). */
export async function expectMoneyInvariant(app: App) {
  const audit = await app.ctx.reads.auditMoney();
  expect(audit, JSON.stringify(audit)).toMatchObject({ ok: true, ledgerMismatches: 0, negativeBalances: 0, multipleLeaders: 0 });
  expect(audit.topups).toBe(audit.balances + audit.held + audit.paid);
  return audit;
}


export { sqliteConnection };
