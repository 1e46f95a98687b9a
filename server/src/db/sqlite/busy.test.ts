/**
 * A second connection holds SQLite's write lock (BEGIN IMMEDIATE, as a migration or a manual sqlite3
 * session would) while requests come in. The holder runs in a worker thread: better-sqlite3 waits for
 * the lock synchronously (busy_timeout), so a holder on this thread could never let go.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import {
  bid, call, createAuction, expectError, expectMoneyInvariant, makeApp, richBidder, signUpAdmin, tempDir, uniqueName,
  sqliteConnection,
} from '../../test/helpers.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve('better-sqlite3');

// Plain JS for the worker: take the write lock, touch a row (so the WAL moves on, as a real writer's
// would), hold for `holdMs`, commit.
const HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
db.prepare('update users set name = name where id = (select min(id) from users)').run();
parentPort.postMessage('locked');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
parentPort.postMessage({ committingAt: Date.now() });
db.exec('COMMIT');
db.close();
parentPort.postMessage('released');
`;

interface Holder {
  /** When the holder began to let go (taken before its COMMIT: no other write can finish earlier). */
  committing: Promise<number>;
  released: Promise<number>;
  isReleased: () => boolean;
}

/** Resolves once the other connection holds the write lock. */
async function holdWriteLock(file: string, holdMs: number): Promise<Holder> {
  const worker = new Worker(HOLDER, { eval: true, workerData: { driver: BETTER_SQLITE3, file, holdMs } });
  let releasedAt = 0;
  const committing = new Promise<number>((resolve) => {
    worker.on('message', (m: unknown) => { if (typeof m === 'object' && m && 'committingAt' in m) resolve(m.committingAt as number); });
  });
  const released = new Promise<number>((resolve, reject) => {
    worker.on('message', (m) => { if (m === 'released') resolve(releasedAt = Date.now()); });
    worker.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m) => { if (m === 'locked') resolve(); });
    worker.once('error', reject);
  });
  cleanups.push(() => released);
  return { committing, released, isReleased: () => releasedAt !== 0 };
}

async function setup() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const file = path.join(dir, 'auction.db');
  const app = await makeApp({ databaseUrl: file });
  cleanups.push(() => app.close());
  const admin = await signUpAdmin(app);
  const main = await createAuction(app, admin.token, { products: 2 });
  const other = await createAuction(app, admin.token, { products: 1 });
  const alice = await richBidder(app, 10_000, [main.auctionId]);
  const bob = await richBidder(app, 10_000, [main.auctionId]);
  return { app, file, admin, main, other, alice, bob };
}

/** One of each kind of write the API does, all at once. */
function writes(s: Awaited<ReturnType<typeof setup>>, amount: number) {
  const { app, admin, main, other, alice, bob } = s;
  return Promise.all([
    bid(app, alice.token, main.productIds[0]!, amount),
    bid(app, bob.token, main.productIds[1]!, amount),
    call(app, 'POST', '/api/wallet/topup', { amount: 500 }, alice.token),
    call(app, 'POST', '/api/auctions/register', { auction_id: other.auctionId }, bob.token),
    call(app, 'POST', '/api/admin/product', { id: uniqueName('BUSY'), name: 'Lamp', description: 'Brass' }, admin.token),
    call(app, 'POST', '/api/register', { name: 'Late', username: uniqueName('late'), password: 'secret1', mobile_number: '9876543210' }),
  ]);
}
const EXPECTED_OK = [201, 201, 200, 200, 201, 201];

function rowCounts(app: App) {
  const sqlite = sqliteConnection(app);
  return Object.fromEntries(['users', 'bids', 'wallet_transactions', 'products', 'registrations'].map((t) =>
    [t, (sqlite.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n]));
}

function expectIntact(file: string) {
  const raw = new Database(file);
  try {
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(raw.pragma('foreign_key_check')).toEqual([]);
  } finally {
    raw.close();
  }
}

describe('a busy database (another connection holds the write lock)', () => {
  it('runs with busy_timeout 5000 ms: a short hold makes writes wait, then they all succeed', async () => {
    const s = await setup();
    expect(sqliteConnection(s.app).pragma('busy_timeout', { simple: true })).toBe(5000);
    const holdMs = 400;
    const holder = await holdWriteLock(s.file, holdMs);
    const t0 = Date.now();
    const answers = await writes(s, 100);
    const doneAt = Date.now();
    expect(answers.map((r) => r.statusCode), answers.map((r) => r.body).join('\n')).toEqual(EXPECTED_OK);
    // They really waited for the lock (nothing was written before the holder let go). The holder's
    // "released" message may be handled after the answers, so compare with the time it began to commit.
    expect(doneAt - t0).toBeGreaterThanOrEqual(holdMs - 100);
    expect(doneAt).toBeGreaterThanOrEqual(await holder.committing);
    await expectMoneyInvariant(s.app);
    expectIntact(s.file);
  });

  it('a hold longer than busy_timeout: every write is a clean 503 UNAVAILABLE, nothing half-applied; retries succeed', async () => {
    const s = await setup();
    const sqlite = sqliteConnection(s.app);
    // The production wait is 5 s; a short one keeps this test fast and behaves the same.
    sqlite.pragma('busy_timeout = 100');
    cleanups.push(() => sqlite.open && sqlite.pragma('busy_timeout = 5000'));
    const before = rowCounts(s.app);
    const moneyBefore = (await s.app.ctx.reads.auditMoney());

    const holder = await holdWriteLock(s.file, 1500);
    const answers = await writes(s, 100);
    // Every answer came while the lock was still held.
    expect(holder.isReleased()).toBe(false);
    for (const res of answers) {
      const body = expectError(res, 503, 'UNAVAILABLE');
      expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message']);
      expect(res.headers['retry-after']).toBe('1');
    }
    // Reads are not blocked by a writer in WAL mode.
    expect((await call(s.app, 'GET', '/api/health')).json()).toEqual({ status: 'ok', db: 'ok', store: 'sqlite', redis: 'off', draining: false, scheduler: 'active' });
    expect((await call(s.app, 'POST', '/api/wallet', {}, s.alice.token)).statusCode).toBe(200);

    await holder.released;
    // Nothing of a refused command was written: not a failed bid row, not a ledger row.
    expect(rowCounts(s.app)).toEqual(before);
    expect((await s.app.ctx.reads.auditMoney())).toEqual(moneyBefore);
    expectIntact(s.file);

    // The client's retry (Retry-After: 1) goes through once the lock is free.
    const retried = await writes(s, 100);
    expect(retried.map((r) => r.statusCode), retried.map((r) => r.body).join('\n')).toEqual(EXPECTED_OK);
    const after = rowCounts(s.app);
    expect(after.bids).toBe(before.bids! + 2);
    await expectMoneyInvariant(s.app);
    expectIntact(s.file);
  });

  // A failed automatic settlement (SQLITE_BUSY from settleAuction) is retried every second
  // (scheduler.ts), so the auction is settled within a couple of seconds of the lock's release.
  it('an auction that ends while the lock is held past busy_timeout is settled once the lock is free', async () => {
    const s = await setup();
    const { auctionId, productIds } = await createAuction(s.app, s.admin.token, { products: 1, endsIn: 1500 });
    expect((await call(s.app, 'POST', '/api/auctions/register', { auction_id: auctionId }, s.alice.token)).statusCode).toBe(200);
    expect((await bid(s.app, s.alice.token, productIds[0]!, 100)).statusCode).toBe(201);
    const sqlite = sqliteConnection(s.app);
    sqlite.pragma('busy_timeout = 100');
    cleanups.push(() => sqlite.open && sqlite.pragma('busy_timeout = 5000'));
    const end = Date.parse((await call(s.app, 'GET', `/api/admin/auction/${auctionId}`, undefined, s.admin.token)).json<{ valid_until: string }>().valid_until);
    const holder = await holdWriteLock(s.file, end + 600 - Date.now());
    const releasedAt = await holder.released;
    const status = async () => (await call(s.app, 'GET', `/api/admin/auction/${auctionId}`, undefined, s.admin.token)).json<{ status: string }>().status;
    while ((await status()) !== 'settled' && Date.now() < releasedAt + 2000) await new Promise((r) => setTimeout(r, 100));
    expect(await status()).toBe('settled');
  });
});
