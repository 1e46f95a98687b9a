/**
 * Per-account limits on what a bidder can repeat cheaply (plugins/rate-limits.ts), through the HTTP API
 * on both stores: cancels, top-ups, saving and unsaving lots, marking notices read. Each allows its
 * figure per window per account, then answers 429 RATE_LIMITED with Retry-After until the window
 * passes; another account is not affected; with RATE_LIMIT=off there is no limit.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../context.js';
import { USER_LIMITS, type UserLimitName } from '../plugins/rate-limits.js';
import { balanceOf, call, createAuction, expectError, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';

const T = Date.parse('2026-11-24T10:00:00.000Z');
// One app with limits on and one with them off, shared: every test signs up accounts of its own.
let limited: { app: App; product: string };
let unlimited: { app: App; product: string };
async function open(rateLimit: boolean) {
  const app = await makeApp({ rateLimit });
  const admin = await signUpAdmin(app);
  const { productIds: [p] } = await createAuction(app, admin.token);
  return { app, product: p! };
}
beforeAll(async () => { [limited, unlimited] = await Promise.all([open(true), open(false)]); });
afterAll(async () => { await Promise.all([limited.app.close(), unlimited.app.close()]); });
afterEach(() => { vi.useRealTimers(); });

interface Case {
  name: UserLimitName;
  what: string;
  /** What an allowed request answers. */
  status: number;
  /** One request of this kind by `token` (`product` is a lot to save). */
  send: (a: App, token: string, product: string) => Promise<LightMyRequestResponse>;
}

const CASES: Case[] = [
  // Cancels of a bid that does not exist: refused (404), and still counted: trying costs a try.
  { name: 'cancel', what: 'POST /api/rollback-bid', status: 404, send: (a, token) => call(a, 'POST', '/api/rollback-bid', { bid_id: 999_999 }, token) },
  { name: 'topup', what: 'POST /api/wallet/topup', status: 200, send: (a, token) => call(a, 'POST', '/api/wallet/topup', { amount: 10 }, token) },
  { name: 'saved', what: 'PUT /api/saved/{id}', status: 204, send: (a, token, p) => call(a, 'PUT', `/api/saved/${p}`, undefined, token) },
  { name: 'saved', what: 'DELETE /api/saved/{id}', status: 204, send: (a, token, p) => call(a, 'DELETE', `/api/saved/${p}`, undefined, token) },
  { name: 'markRead', what: 'POST /api/notifications/read', status: 200, send: (a, token) => call(a, 'POST', '/api/notifications/read', {}, token) },
];

async function setUp(rateLimit: boolean) {
  const { app: a, product } = rateLimit ? limited : unlimited;
  return { a, product, asha: await signUpUser(a), ravi: await signUpUser(a) };
}

describe.each(CASES)('$what: $name limit per account', ({ name, status, send }) => {
  const { max, windowMs } = USER_LIMITS[name];

  it(`RATE_LIMIT on: ${max} per window, then 429 RATE_LIMITED with Retry-After; another account and the next window are free`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const { a, product, asha, ravi } = await setUp(true);
    for (let i = 0; i < max; i++) expect((await send(a, asha.token, product)).statusCode).toBe(status);
    const limited = await send(a, asha.token, product);
    expect(expectError(limited, 429, 'RATE_LIMITED').error).toMatch(/try again/i);
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(windowMs / 1000);
    expect((await send(a, ravi.token, product)).statusCode).toBe(status);
    vi.setSystemTime(T + windowMs);
    expect((await send(a, asha.token, product)).statusCode).toBe(status);
  });

  it('RATE_LIMIT off: no limit', async () => {
    const { a, product, asha } = await setUp(false);
    for (let i = 0; i < max + 5; i++) expect((await send(a, asha.token, product)).statusCode).toBe(status);
  });
});

describe('a limited request changes nothing', () => {
  it('a top-up past the limit adds no money and writes no ledger row', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const { app } = limited;
    const asha = await richBidder(app, 100);
    for (let i = 1; i < USER_LIMITS.topup.max; i++) expect((await call(app, 'POST', '/api/wallet/topup', { amount: 10 }, asha.token)).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/wallet/topup', { amount: 10 }, asha.token), 429, 'RATE_LIMITED');
    expect(await balanceOf(app, asha.token)).toBe(100 + 10 * (USER_LIMITS.topup.max - 1));
    expect((await call(app, 'GET', '/api/wallet/transactions', undefined, asha.token)).json<{ transactions: unknown[] }>().transactions).toHaveLength(USER_LIMITS.topup.max);
  });
});
