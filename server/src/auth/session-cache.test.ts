/**
 * The session check from memory (auth/session-cache.ts): one account read per SESSION_TTL_MS, and
 * revocation as immediate as before on this process and, through Redis, on the others.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../context.js';
import type { SessionRow } from '../db/index.js';
import { freshTestDatabase, redisAvailable, TEST_REDIS_URL, testStoreKind } from '../db/testing.js';
import { call, expectError, makeApp, makeClock, signUpAdmin, signUpUser } from '../test/helpers.js';
import { SESSION_TTL_MS, SessionCache } from './session-cache.js';

const active: SessionRow = { username: 'asha', status: 'active', tokenVersion: 0, isOwner: false };

function fakeReads(rows: Map<number, SessionRow>) {
  const reads = { calls: 0, session: async (_role: string, id: number) => { reads.calls++; return rows.get(id) ?? null; } };
  return reads;
}

describe('SessionCache', () => {
  it('reads an active account once per SESSION_TTL_MS, then again', async () => {
    const clock = makeClock();
    const reads = fakeReads(new Map([[1, active]]));
    const cache = new SessionCache(reads, clock.now);
    for (let i = 0; i < 5; i++) expect(await cache.session('user', 1)).toEqual(active);
    expect(reads.calls).toBe(1);
    clock.advance(SESSION_TTL_MS - 1);
    await cache.session('user', 1);
    expect(reads.calls).toBe(1);
    clock.advance(1);
    await cache.session('user', 1);
    expect(reads.calls).toBe(2);
  });

  it('keeps roles apart and never remembers an inactive or missing account', async () => {
    const reads = fakeReads(new Map([[1, active], [2, { ...active, status: 'inactive' }]]));
    const cache = new SessionCache(reads);
    await cache.session('user', 1);
    await cache.session('admin', 1);
    expect(reads.calls).toBe(2);
    for (let i = 0; i < 3; i++) {
      expect(await cache.session('user', 2)).toMatchObject({ status: 'inactive' });
      expect(await cache.session('user', 3)).toBeNull();
    }
    expect(reads.calls).toBe(8);
    expect(cache.size).toBe(2);
  });

  it('forget makes the next check read the account again', async () => {
    const rows = new Map([[1, active]]);
    const reads = fakeReads(rows);
    const cache = new SessionCache(reads);
    await cache.session('user', 1);
    rows.set(1, { ...active, tokenVersion: 1 });
    cache.forget('user', 1);
    expect(await cache.session('user', 1)).toMatchObject({ tokenVersion: 1 });
    expect(reads.calls).toBe(2);
  });

  it('clear (after a relay gap: a revocation elsewhere may have gone unheard) makes every next check read its account again', async () => {
    const rows = new Map([[1, active], [2, active]]);
    const reads = fakeReads(rows);
    const cache = new SessionCache(reads);
    await cache.session('user', 1);
    await cache.session('admin', 2);
    rows.set(1, { ...active, status: 'inactive' });
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await cache.session('user', 1)).toMatchObject({ status: 'inactive' });
    await cache.session('admin', 2);
    expect(reads.calls).toBe(4);
  });

  it('a read that was in flight when the account changed is answered but not remembered', async () => {
    let release!: (row: SessionRow) => void;
    const reads = { session: vi.fn(() => new Promise<SessionRow | null>((r) => { release = r; })) };
    const cache = new SessionCache(reads);
    const pending = cache.session('user', 1);
    cache.forget('user', 1);
    release(active);
    expect(await pending).toEqual(active);
    reads.session.mockResolvedValueOnce({ ...active, tokenVersion: 1 });
    expect(await cache.session('user', 1)).toMatchObject({ tokenVersion: 1 });
    expect(reads.session).toHaveBeenCalledTimes(2);
  });
});

describe('the guard uses it', () => {
  let app: App;
  afterEach(async () => { await app?.close(); });

  it('many authenticated requests read the account once; a password change or a deactivation still refuses the old token on the next request', async () => {
    app = await makeApp();
    const owner = await signUpAdmin(app);
    const asha = await signUpUser(app);
    const ravi = await signUpUser(app);
    const reads = vi.spyOn(app.ctx.reads, 'session');
    for (let i = 0; i < 20; i++) expect((await call(app, 'POST', '/api/wallet', {}, asha.token)).statusCode).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);

    const changed = await call(app, 'POST', '/api/change-password', { password: asha.password, new_password: 'secret2' }, asha.token);
    expect(changed.statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/wallet', {}, asha.token), 401, 'UNAUTHENTICATED');
    expect((await call(app, 'POST', '/api/wallet', {}, changed.json<{ token: string }>().token)).statusCode).toBe(200);

    expect((await call(app, 'POST', '/api/wallet', {}, ravi.token)).statusCode).toBe(200);
    expect((await call(app, 'PATCH', `/api/admin/users/${ravi.user.id}`, { status: 'inactive' }, owner.token)).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/wallet', {}, ravi.token), 401, 'UNAUTHENTICATED');
  });
});

describe.runIf(testStoreKind === 'postgres' && redisAvailable)('two processes on one PostgreSQL and Redis', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a password change or a deactivation on one process refuses the old token on the other well within SESSION_TTL_MS', async () => {
    const db = freshTestDatabase('postgres');
    cleanups.push(() => db.drop());
    const [a, b] = await Promise.all([0, 1].map(async () => {
      const app = await makeApp({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL });
      cleanups.push(async () => { await app.close(); });
      return app;
    })) as [App, App];
    const owner = await signUpAdmin(a);
    const asha = await signUpUser(a);
    const ravi = await signUpUser(a);
    // Both tokens are now remembered on b.
    for (const u of [asha, ravi]) expect((await call(b, 'POST', '/api/wallet', {}, u.token)).statusCode).toBe(200);

    const refusedOnB = async (token: string) => {
      const since = Date.now();
      while ((await call(b, 'POST', '/api/wallet', {}, token)).statusCode !== 401) {
        expect(Date.now() - since).toBeLessThan(SESSION_TTL_MS / 2);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    expect((await call(a, 'POST', '/api/change-password', { password: asha.password, new_password: 'secret2' }, asha.token)).statusCode).toBe(200);
    await refusedOnB(asha.token);
    expect((await call(a, 'PATCH', `/api/admin/users/${ravi.user.id}`, { status: 'inactive' }, owner.token)).statusCode).toBe(200);
    await refusedOnB(ravi.token);
  });
});
