/**
 * WAL checkpoints on their own thread (checkpointer.ts): the main connection stops checkpointing in
 * its commits, the WAL stays bounded however much is written, nothing is lost, and should the thread
 * stop the main connection checkpoints itself again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, makeApp, signUpUser, sqliteConnection, tempDir } from '../../test/helpers.js';
import { eventually } from '../../test/live-helpers.js';
import { openSqliteStore, type SqliteStore } from './store.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

function store(): { store: SqliteStore; file: string } {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const file = path.join(dir, 'auction.db');
  const s = openSqliteStore(file);
  cleanups.push(() => s.close());
  s.connection.exec('create table notes (id integer primary key, body text not null)');
  return { store: s, file };
}

const autoCheckpoint = (s: SqliteStore) => s.connection.pragma('wal_autocheckpoint', { simple: true });
const walBytes = (file: string) => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);

describe('the checkpoint thread', () => {
  it('takes over checkpoints: 10,000 commits keep the WAL small, and every row is there after a reopen', async () => {
    const { store: s, file } = store();
    expect(autoCheckpoint(s)).toBe(1000);
    s.startCheckpointer(20);
    await eventually(() => expect(autoCheckpoint(s)).toBe(0));
    const insert = s.connection.prepare('insert into notes (body) values (?)');
    let largest = 0;
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 1000; i++) insert.run(`note ${round}-${i} ${'x'.repeat(200)}`);
      largest = Math.max(largest, walBytes(file));
      // The event loop turns (as a server's does between batches): the thread checkpoints meanwhile.
      await new Promise((r) => setTimeout(r, 40));
    }
    // Without checkpoints (autocheckpoint off) the WAL would hold all 10,000 commits: ~40 MB.
    expect(largest).toBeLessThan(16 * 1024 * 1024);
    expect(s.checkpointer!.stats.checkpoints).toBeGreaterThan(3);
    await s.close();
    const again = openSqliteStore(file);
    cleanups.push(() => again.close());
    expect(again.connection.prepare('select count(*) as n from notes').get()).toEqual({ n: 10_000 });
  }, 90_000);

  it('under writing that never pauses, it makes the writer start the WAL over: bounded, and the next commit is quick', async () => {
    const { store: s, file } = store();
    s.startCheckpointer(20);
    await eventually(() => expect(autoCheckpoint(s)).toBe(0));
    const insert = s.connection.prepare('insert into notes (body) values (?)');
    const body = 'x'.repeat(3000);
    let largest = 0;
    const started = Date.now();
    const restarted = () => s.checkpointer!.stats.restarts + s.checkpointer!.stats.truncates > 0;
    // At least 2.5 s; on a loaded machine, until the thread has had its turn to restart the WAL (20 s at most).
    while (Date.now() - started < 2500 || (!restarted() && Date.now() - started < 20_000)) {
      s.connection.exec('begin immediate');
      for (let i = 0; i < 3; i++) insert.run(body);
      s.connection.exec('commit');
      largest = Math.max(largest, walBytes(file));
      // Only the shortest turn of the event loop between commits: a PASSIVE checkpoint is never caught up.
      await new Promise((r) => setImmediate(r));
    }
    // Without the RESTART the WAL held every commit of the run (~350 MB measured in 4 s).
    expect(largest).toBeLessThan(96 * 1024 * 1024);
    expect(restarted()).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const t = performance.now();
    insert.run('after the burst');
    // Quick: not a checkpoint of the burst's WAL (seconds at ~100 MB), with room for a loaded machine.
    expect(performance.now() - t).toBeLessThan(200);
  }, 60_000);

  it('if the thread stops, the main connection checkpoints in its commits again', async () => {
    const { store: s } = store();
    const checkpointer = s.startCheckpointer(20)!;
    await eventually(() => expect(autoCheckpoint(s)).toBe(0));
    await checkpointer.kill();
    await eventually(() => expect(autoCheckpoint(s)).toBe(1000));
    expect(s.checkpointer).toBeNull();
    // No second thread is started after a failure.
    expect(s.startCheckpointer(20)).toBeNull();
  });

  it('a server starts it once it has written a few hundred transactions', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const app = await makeApp({ databaseUrl: path.join(dir, 'auction.db') });
    cleanups.push(() => app.close());
    const store = app.ctx.store as SqliteStore;
    expect(store.checkpointer).toBeNull();
    const u = await signUpUser(app);
    for (let i = 0; i < 260; i++) expect((await call(app, 'POST', '/api/wallet/topup', { amount: 10 }, u.token)).statusCode).toBe(200);
    expect(store.checkpointer).not.toBeNull();
    await eventually(() => expect(sqliteConnection(app).pragma('wal_autocheckpoint', { simple: true })).toBe(0));
    expect((await call(app, 'POST', '/api/wallet', {}, u.token)).json()).toEqual({ wallet_balance: 2600, on_hold: 0 });
  });
});
