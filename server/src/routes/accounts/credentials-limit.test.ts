/**
 * Password changes are rate-limited like login. Per IP: 20 a minute (as login and
 * register). Per account: 10 attempts per 15 minutes, keyed on the authenticated caller, so a new
 * address does not reset it and one account's guessing does not lock out another account.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../../context.js';
import { redisAvailable, TEST_REDIS_URL } from '../../db/testing.js';
import { expectError, makeApp, signUpAdmin, signUpUser, tempDir } from '../../test/helpers.js';

const T = Date.parse('2026-11-24T10:00:00.000Z');
const MINUTE = 60_000;

type Kind = 'bidder' | 'admin';

/** An account of the kind and a way to call its change-password route from a chosen address. */
async function account(app: App, kind: Kind) {
  const acct = kind === 'bidder' ? await signUpUser(app) : await signUpAdmin(app);
  const id = 'user' in acct ? acct.user.id : acct.admin.id;
  let token = acct.token;
  let password = acct.password;
  let changes = 0;
  const url = kind === 'bidder' ? '/api/change-password' : '/api/admin/change-password';
  const send = (current: string, next: string, remoteAddress: string) => app.inject({
    method: 'POST', url, remoteAddress, headers: { authorization: `Bearer ${token}` },
    payload: { password: current, new_password: next, ...(kind === 'admin' ? { role: 'admin' } : {}) },
  });
  return {
    id,
    /** A wrong current password (400 WRONG_PASSWORD while under the limits). */
    wrong: (remoteAddress = '127.0.0.1') => send('not-the-password', 'newpass1', remoteAddress),
    /** The right current password; on success the new password and token are kept for the next call. */
    right: async (remoteAddress = '127.0.0.1'): Promise<LightMyRequestResponse> => {
      const next = `newpass${++changes}`;
      const res = await send(password, next, remoteAddress);
      if (res.statusCode === 200) {
        password = next;
        token = res.json<{ token: string }>().token;
      }
      return res;
    },
  };
}

/** A distinct address per attempt: changing IP must not help. */
const ip = (i: number) => `10.${Math.floor(i / 250)}.${i % 250}.7`;

afterEach(() => { vi.useRealTimers(); });

describe.each<Kind>(['bidder', 'admin'])('%s change-password, RATE_LIMIT on', (kind) => {
  it('per account: 10 attempts per 15 minutes, whatever the address; the 11th (even the right password) is 429 RATE_LIMITED; other accounts are unaffected', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const app = await makeApp({ rateLimit: true });
    try {
      const victim = await account(app, kind);
      const bystander = await account(app, kind);
      // 32 concurrent guesses, each from its own address: only 10 reach the password check (scrypt).
      const burst = await Promise.all(Array.from({ length: 32 }, (_, i) => victim.wrong(ip(i))));
      expect(burst.filter((r) => r.statusCode === 400).length).toBe(10);
      for (const res of burst.filter((r) => r.statusCode !== 400)) expectError(res, 429, 'RATE_LIMITED');
      // The guess that would be right, from yet another address, is refused before the password is checked.
      const limited = await victim.right(ip(40));
      expect(expectError(limited, 429, 'RATE_LIMITED').error).toMatch(/try again in 15 minutes/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expectError(await victim.wrong(ip(41)), 429, 'RATE_LIMITED');
      // Another account, from the hammering address itself, changes its password as usual.
      expect((await bystander.right(ip(0))).statusCode).toBe(200);
      expect((await bystander.right('127.0.0.1')).statusCode).toBe(200);
      // Still limited after 14 minutes; free again once the 15-minute window has passed.
      vi.setSystemTime(T + 14 * MINUTE);
      expectError(await victim.right(ip(12)), 429, 'RATE_LIMITED');
      vi.setSystemTime(T + 15 * MINUTE + 1_000);
      expect((await victim.right(ip(13))).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('per IP: 20 a minute across accounts from one address; another address and the next minute are free', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const app = await makeApp({ rateLimit: true });
    try {
      const [a, b, c] = [await account(app, kind), await account(app, kind), await account(app, kind)];
      const from = '203.0.113.9';
      // 7 + 7 + 6 wrong guesses: each account under its own limit of 10, the address at 20.
      const guesses = [...Array(7).fill(a), ...Array(7).fill(b), ...Array(6).fill(c)] as (typeof a)[];
      for (const res of await Promise.all(guesses.map((acct) => acct.wrong(from)))) expectError(res, 400, 'WRONG_PASSWORD');
      const limited = await c.right(from);
      expect(expectError(limited, 429, 'RATE_LIMITED').error).toMatch(/try again/i);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expectError(await a.right(from), 429, 'RATE_LIMITED');
      expect((await c.right('198.51.100.4')).statusCode).toBe(200);
      vi.setSystemTime(T + MINUTE + 1_000);
      expect((await a.right(from)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

it('bidders and admins are separate accounts even with the same id', async () => {
  const app = await makeApp({ rateLimit: true });
  try {
    const bidder = await account(app, 'bidder');
    const admin = await account(app, 'admin');
    expect(admin.id).toBe(bidder.id);
    for (const res of await Promise.all(Array.from({ length: 10 }, (_, i) => bidder.wrong(ip(i))))) expectError(res, 400, 'WRONG_PASSWORD');
    expectError(await bidder.right(ip(10)), 429, 'RATE_LIMITED');
    expect((await admin.right(ip(11))).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

it.each<Kind>(['bidder', 'admin'])('RATE_LIMIT off: %s change-password is never 429', async (kind) => {
  const app = await makeApp({ rateLimit: false });
  try {
    const acct = await account(app, kind);
    // Past both limits (10 per account, 20 per address), all from one address.
    for (const res of await Promise.all(Array.from({ length: 25 }, () => acct.wrong()))) expectError(res, 400, 'WRONG_PASSWORD');
    expect((await acct.right()).statusCode).toBe(200);
  } finally {
    await app.close();
  }
});

it.skipIf(!redisAvailable)('with REDIS_URL the per-account count lives in Redis: another process on the same store sees it', async () => {
  // A file database of its own: the Redis namespace is derived from DATABASE_URL.
  const { dir, cleanup } = tempDir();
  const config = { rateLimit: true, redisUrl: TEST_REDIS_URL, databaseUrl: `${dir}/auction.db` };
  const attempt = (app: App, token: string, password: string, remoteAddress: string) => app.inject({
    method: 'POST', url: '/api/change-password', remoteAddress, headers: { authorization: `Bearer ${token}` },
    payload: { password, new_password: 'newpass1' },
  });
  try {
    const first = await makeApp(config);
    let victim: Awaited<ReturnType<typeof signUpUser>>;
    try {
      victim = await signUpUser(first);
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => attempt(first, victim.token, 'not-the-password', ip(i))));
      for (const res of burst) expectError(res, 400, 'WRONG_PASSWORD');
    } finally {
      await first.close();
    }
    // Another process on the same store and Redis (same secret, so the token is valid there too).
    const second = await makeApp(config);
    try {
      expectError(await attempt(second, victim.token, victim.password, ip(10)), 429, 'RATE_LIMITED');
      const other = await signUpUser(second);
      expect((await attempt(second, other.token, other.password, ip(11))).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  } finally {
    cleanup();
  }
});
