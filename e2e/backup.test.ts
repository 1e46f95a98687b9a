/**
 * `npm run backup -- <file>` against a running server in the middle of a bid storm, then the
 * documented restore: stop, copy the backup over the database file (no -wal/-shm), start.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, api, bidStorm, inspectDb, openMarket, signUp, startServer, waitFor, type RunningServer } from './server.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-backup-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir?: string): Promise<RunningServer> {
  const server = await startServer({}, dataDir);
  cleanups.push(async () => { await server.stop('SIGKILL'); server.cleanup(); });
  return server;
}

function run(cmd: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}


describe('npm run backup', () => {
  it('backs up a running server mid-storm without disturbing it; the restored copy starts with the data and the invariant', async () => {
    const live = await start();
    const market = await openMarket(live.url, 'bk', { products: 3, bidders: 9 });
    const storm = bidStorm(live.url, market, 16);
    await waitFor(() => storm.accepted.length >= 200, 15_000, '200 accepted bids');
    const before = storm.accepted.length;
    const target = path.join(tempDir(), 'nested', 'auction-backup.db');
    const backup = await run('npm', ['run', '--silent', 'backup', '--', target], { DATABASE_URL: path.join(live.dataDir, 'auction.db') });
    const during = storm.accepted.length - before;
    await storm.stop();

    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(target);
    expect(backup.stdout).toMatch(/integrity ok, money invariant ok/);
    // The server went on taking bids while the backup ran, and nothing failed.
    expect(during, 'bids accepted while the backup ran').toBeGreaterThan(0);
    expect(storm.bad).toEqual([]);
    expect(storm.answers.filter((a) => a.status >= 500)).toEqual([]);
    // One self-contained file, owner-only, nothing left beside it.
    expect(fs.readdirSync(path.dirname(target))).toEqual([path.basename(target)]);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);

    // The copy is one consistent snapshot: sound, money right, and (ids being given in commit order)
    // holding exactly the acknowledged bids up to its newest one, which is at least every bid
    // acknowledged before the backup began.
    const copy = await inspectDb(target);
    let lastId: number;
    const highest: Record<string, number> = {};
    try {
      expect(await copy.integrity()).toBe('ok');
      expect(await copy.audit()).toMatchObject({ ok: true, ledgerMismatches: 0, negativeBalances: 0, multipleLeaders: 0 });
      expect(await copy.ledgerMismatches()).toBe(0);
      expect(await copy.bidCountMismatches()).toBe(0);
      lastId = await copy.count('select max(id) as n from bids');
      const missing = [];
      for (const b of storm.accepted) if (b.bidId <= lastId && (await copy.bid(b.bidId))?.amount !== Math.round(b.amount * 100)) missing.push(b);
      expect(missing).toEqual([]);
      expect(Math.max(...storm.accepted.slice(0, before).map((b) => b.bidId))).toBeLessThanOrEqual(lastId);
      for (const r of await copy.rows<{ p: string; amount: number }>("select product_id as p, amount from bids where status = 'success'")) highest[r.p] = r.amount / 100;
    } finally {
      await copy.close();
    }
    expect(Object.keys(highest).sort()).toEqual([...market.productIds].sort());

    // Restore as documented: the backup becomes the database file of a fresh data folder.
    const restoreDir = tempDir();
    fs.copyFileSync(target, path.join(restoreDir, 'auction.db'));
    const restored = await start(restoreDir);
    // A new data folder means a new signing key: sign in again (README: keep jwt-secret or JWT_SECRET).
    const adminLogin = await api(restored.url, 'POST', '/admin/login', { username: 'bk_admin', password: 'secret1', role: 'admin' });
    expect(adminLogin.status).toBe(200);
    const lots = await api(restored.url, 'GET', `/admin/auction/${market.auctionId}/products`, undefined, adminLogin.body.token);
    expect(Object.fromEntries((lots.body as { id: string; highest_bid: number }[]).map((p) => [p.id, p.highest_bid]))).toEqual(highest);
    const bidder = await api(restored.url, 'POST', '/login', { username: market.bidders[0]!.username, password: 'secret1' });
    expect(bidder.status).toBe(200);
    const mine = await api(restored.url, 'GET', '/user-bids', undefined, bidder.body.token);
    expect(mine.body.length).toBeGreaterThan(0);
    expect(Math.max(...(mine.body as { bid_id: number }[]).map((b) => b.bid_id))).toBeLessThanOrEqual(lastId);
    // It is a working server: new accounts and bids go in, and the money still adds up.
    const fresh = await signUp(restored.url, 'user', 'bk_after_restore');
    expect((await api(restored.url, 'POST', '/wallet/topup', { amount: 100_000 }, fresh)).status).toBe(200);
    expect((await api(restored.url, 'POST', '/auctions/register', { auction_id: market.auctionId }, fresh)).status).toBe(200);
    const top = Math.max(...Object.values(highest));
    expect((await api(restored.url, 'POST', '/bid', { product_id: market.productIds[0], bid_amount: top + 1 }, fresh)).status).toBe(201);
    const db = await inspectDb(path.join(restoreDir, 'auction.db'));
    try {
      expect(await db.integrity()).toBe('ok');
      expect((await db.audit()).ok).toBe(true);
      expect(await db.ledgerMismatches()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('refuses a missing database and an existing target (unless --force), leaving nothing behind', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'out.db');
    const missing = await run(process.execPath, ['scripts/backup.mjs', target], { DATABASE_URL: path.join(dir, 'no-such.db') });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no database at');
    expect(fs.readdirSync(dir)).toEqual([]);

    fs.writeFileSync(path.join(dir, 'source.db'), '');
    fs.writeFileSync(target, 'keep me');
    const exists = await run(process.execPath, ['scripts/backup.mjs', target], { DATABASE_URL: path.join(dir, 'source.db') });
    expect(exists.code).toBe(2);
    expect(exists.stderr).toContain('pass --force');
    expect(fs.readFileSync(target, 'utf8')).toBe('keep me');
    expect(fs.readdirSync(dir).sort()).toEqual(['out.db', 'source.db']);
  });
});
