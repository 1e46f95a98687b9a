/**
 * Real server processes sharing one PostgreSQL and one Redis (docs/deploy.md): three processes on three
 * ports (as three machines behind a balancer), one of them killed mid-storm, then the one keeping the
 * clock killed too; and `npm run cluster` itself (node:cluster, one port), including its refusals.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame, RoomEvent } from '@auction/shared';
import { freshTestDatabase, redisAvailable, TEST_REDIS_URL } from '../server/src/db/testing.js';
import { connect } from '../server/src/test/live-helpers.js';
import {
  ROOT, api, bidStorm, createAuction, freePort, inspectDb, openMarket, startServer, waitFor, type RunningServer, type Storm,
} from './server.js';

const postgresAvailable = process.env.TEST_POSTGRES === 'available';
const cleanups: (() => unknown)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

const SECRET = 'cluster-test-secret-that-is-long-enough-0123456789';

/** A durable schema of its own, shared by every process of the test. */
function sharedDatabase() {
  const database = freshTestDatabase('postgres', undefined, { durable: true });
  cleanups.push(() => database.drop());
  return database;
}

async function startProcesses(n: number, env: Record<string, string>): Promise<RunningServer[]> {
  const servers: RunningServer[] = [];
  for (let i = 0; i < n; i++) {
    const s = await startServer({ REDIS_URL: TEST_REDIS_URL, JWT_SECRET: SECRET, ...env });
    cleanups.push(async () => { await s.stop('SIGKILL'); s.cleanup(); });
    servers.push(s);
  }
  return servers;
}

type Versioned = { product_id: string; version: number; highest_bid: number };
const productEvents = (frames: Frame[]) =>
  frames.flatMap((f) => f.events).filter((e: RoomEvent): e is RoomEvent & { data: Versioned } => e.event === 'bid:placed' || e.event === 'bid:rolledback');

async function health(url: string) {
  return (await api(url, 'GET', '/health')).body as { status: string; scheduler: 'active' | 'standby'; redis: string; store: string };
}

describe.runIf(postgresAvailable && redisAvailable)('three server processes on one PostgreSQL and Redis', () => {
  it('SIGKILL of one mid-storm loses no acknowledged bid; watchers elsewhere agree; its clients re-read state on another; killing the clock keeper still settles', async () => {
    const database = sharedDatabase();
    const servers = await startProcesses(3, { DATABASE_URL: database.url });
    const [s0, s1, s2] = servers as [RunningServer, RunningServer, RunningServer];
    for (const s of servers) expect(await health(s.url)).toMatchObject({ status: 'ok', store: 'postgres', redis: 'ok' });
    expect(servers.length).toBe(3);
    const market = await openMarket(s0.url, 'cl', { products: 3, bidders: 12 });

    // A watcher on every process.
    const watchers = await Promise.all(servers.map(async (s, i) => {
      const c = await connect(s.url, market.bidders[i]!.token);
      cleanups.push(c.close);
      expect(await c.watch(market.auctionId)).toMatchObject({ status: 'ok' });
      return c;
    }));

    // A storm through every process; process 1 is killed in the middle of it.
    const counter = { seq: 0 };
    const storms: Storm[] = servers.map((s) => bidStorm(s.url, market, 8, counter));
    await waitFor(() => storms.every((st) => st.accepted.length >= 40), 20_000, '40 accepted bids on every process');
    expect(storms[1]!.inFlight).toBeGreaterThan(0);
    await s1.stop('SIGKILL');
    await new Promise((r) => setTimeout(r, 1000));
    await Promise.all(storms.map((st) => st.stop()));
    for (const st of storms) {
      expect(st.bad).toEqual([]);
      expect(st.answers.filter((a) => a.status >= 500)).toEqual([]);
    }

    const db = await inspectDb(database.url);
    cleanups.push(() => db.close());
    // Every bid any process acknowledged is there, with its lot and amount; the money adds up exactly.
    const missing = [];
    for (const b of storms.flatMap((st) => st.accepted)) {
      const row = await db.bid(b.bidId);
      if (!row || row.productId !== b.productId || row.amount !== Math.round(b.amount * 100) || !['success', 'outbid', 'won'].includes(row.status)) missing.push(b);
    }
    expect(missing).toEqual([]);
    const audit = await db.audit();
    expect(audit, JSON.stringify(audit)).toMatchObject({ ok: true, ledgerMismatches: 0, negativeBalances: 0, multipleLeaders: 0 });
    expect(audit.topups).toBe(audit.balances + audit.held + audit.paid);
    expect(await db.ledgerMismatches()).toBe(0);
    expect(await db.bidCountMismatches()).toBe(0);

    // The final state, as the API of a survivor shows it.
    const shown = (await api(s0.url, 'GET', `/auctions/${market.auctionId}/products`, undefined, market.adminToken)).body as { id: string; highest_bid: number; version: number }[];
    // Watchers on the surviving processes end on it, their versions strictly rising.
    await waitFor(() => [watchers[0]!, watchers[2]!].every((w) => {
      const last = new Map(productEvents(w.frames).map((e) => [e.data.product_id, e.data]));
      return shown.every((p) => last.get(p.id)?.highest_bid === p.highest_bid && last.get(p.id)?.version === p.version);
    }), 5000, 'watchers on the survivors to show the final state');
    for (const w of watchers) {
      for (const p of shown) {
        const versions = productEvents(w.frames).filter((e) => e.data.product_id === p.id).map((e) => e.data.version);
        for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
      }
    }
    // The killed process's watcher lost its connection; it reconnects to a survivor and re-reads state.
    await waitFor(() => !watchers[1]!.socket.connected, 5000, 'the killed process\'s socket to drop');
    const again = await connect(s2.url, market.bidders[1]!.token);
    cleanups.push(again.close);
    expect(await again.watch(market.auctionId)).toMatchObject({ status: 'ok' });
    // The dead process's sockets stop counting once its heartbeat lapses (a few seconds): every
    // watcher, wherever it is, then reads the same cluster-wide count.
    const lastCount = (frames: Frame[]) => frames.flatMap((f) => f.events).filter((e) => e.event === 'auction:watchers').map((e) => (e.data as { watchers: number }).watchers).at(-1);
    await waitFor(() => [watchers[0]!, watchers[2]!, again].every((w) => lastCount(w.frames) === 3), 10_000, 'every watcher to count 3');
    const reread = (await api(s2.url, 'GET', `/auctions/${market.auctionId}/products`, undefined, market.bidders[1]!.token)).body as typeof shown;
    expect(reread.map((p) => [p.id, p.highest_bid, p.version])).toEqual(shown.map((p) => [p.id, p.highest_bid, p.version]));

    // Personal events cross processes: bidder 0's socket is on process 0; the bids that outbid them
    // are taken by process 2.
    const lot = market.productIds[0]!;
    const top = shown.find((p) => p.id === lot)!.highest_bid;
    const personalBefore = watchers[0]!.personal.length;
    expect((await api(s2.url, 'POST', '/bid', { product_id: lot, bid_amount: top + 100 }, market.bidders[0]!.token)).status).toBe(201);
    expect((await api(s2.url, 'POST', '/bid', { product_id: lot, bid_amount: top + 200 }, market.bidders[4]!.token)).status).toBe(201);
    await waitFor(() => watchers[0]!.personal.slice(personalBefore).some((p) => p.event === 'bid:outbid' && (p.data as { highest_bid: number }).highest_bid === top + 200), 5000, 'bid:outbid on process 0');
    expect(watchers[0]!.personal.slice(personalBefore).filter((p) => p.event === 'wallet:updated')).toHaveLength(2);

    // Exactly one survivor keeps the clock; kill it too: the other settles the next ending within 5 s.
    const survivors = [s0, s2];
    let keeper: RunningServer | undefined;
    const deadline = Date.now() + 5000;
    while (!keeper && Date.now() < deadline) {
      const states = await Promise.all(survivors.map((s) => health(s.url)));
      if (states.filter((h) => h.scheduler === 'active').length === 1) keeper = survivors[states.findIndex((h) => h.scheduler === 'active')];
      else await new Promise((r) => setTimeout(r, 200));
    }
    expect(keeper, 'one survivor keeps the clock').toBeDefined();
    const other = survivors.find((s) => s !== keeper)!;
    const ending = await createAuction(other.url, market.adminToken, 'cl-ending', 1, 4000);
    const winner = market.bidders[5]!;
    expect((await api(other.url, 'POST', '/auctions/register', { auction_id: ending.auctionId }, winner.token)).status).toBe(200);
    expect((await api(other.url, 'POST', '/bid', { product_id: ending.productIds[0], bid_amount: 500 }, winner.token)).status).toBe(201);
    await keeper!.stop('SIGKILL');
    let settledAt = 0;
    while (!settledAt && Date.now() < ending.validUntil + 8000) {
      const a = await api(other.url, 'GET', `/admin/auction/${ending.auctionId}`, undefined, market.adminToken);
      if (a.body?.status === 'settled') settledAt = Date.now();
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(settledAt, 'the next ending settled').toBeGreaterThan(0);
    expect(settledAt - ending.validUntil).toBeLessThan(5000);
    expect((await health(other.url)).scheduler).toBe('active');
    const lots = await api(other.url, 'GET', `/admin/auction/${ending.auctionId}/products`, undefined, market.adminToken);
    expect(lots.body).toEqual([expect.objectContaining({ status: 'sold', highest_bid: 500 })]);
    const final = await db.audit();
    expect(final).toMatchObject({ ok: true, ledgerMismatches: 0, negativeBalances: 0, multipleLeaders: 0 });
  });
});

/** Runs `npm run cluster`'s script; resolves once `ready` matches its output (or it exits). */
function runCluster(args: string[], env: Record<string, string>) {
  let out = '';
  const proc = spawn(process.execPath, ['scripts/cluster.mjs', ...args], {
    cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT: 'off', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  proc.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  cleanups.push(() => { if (proc.exitCode === null) proc.kill('SIGKILL'); });
  return { proc, exited, output: () => out };
}

describe('npm run cluster', () => {
  it('refuses SQLite and a missing Redis with a clear message', async () => {
    const sqlite = runCluster(['--workers', '2'], { DATABASE_URL: './data/never.db', REDIS_URL: TEST_REDIS_URL });
    expect(await sqlite.exited).toBe(2);
    expect(sqlite.output()).toContain('npm run cluster needs PostgreSQL');
    const noRedis = runCluster(['--workers', '2'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', REDIS_URL: '' });
    expect(await noRedis.exited).toBe(2);
    expect(noRedis.output()).toContain('npm run cluster needs Redis');
    const badCount = runCluster(['--workers', 'many'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', REDIS_URL: TEST_REDIS_URL });
    expect(await badCount.exited).toBe(2);
    expect(badCount.output()).toContain('--workers must be an integer');
  });

  it.runIf(postgresAvailable && redisAvailable)('runs N workers on one port, replaces a dead one, reloads them one by one on SIGHUP and stops on SIGTERM', async () => {
    const database = sharedDatabase();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const c = runCluster(['--workers', '2'], { DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, JWT_SECRET: SECRET, PORT: String(port), HOST: '127.0.0.1' });
    await waitFor(() => (c.output().match(/listening on/g) ?? []).length >= 2, 30_000, 'two workers listening');
    const h = await health(url);
    expect(h).toMatchObject({ status: 'ok', store: 'postgres', redis: 'ok' });
    // A worker killed is replaced.
    const pid = Number(/worker (\d+) listening/.exec(c.output())![1]);
    process.kill(pid, 'SIGKILL');
    await waitFor(() => (c.output().match(/listening on/g) ?? []).length >= 3, 30_000, 'a replacement worker');
    expect((await health(url)).status).toBe('ok');
    // SIGHUP replaces every worker, one at a time, while requests keep being answered.
    const answers: (number | 'refused')[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        try {
          const res = await fetch(`${url}/api/time`);
          answers.push(res.status);
          await res.text();
        } catch {
          answers.push('refused');
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    c.proc.kill('SIGHUP');
    await waitFor(() => c.output().includes('every worker replaced'), 30_000, 'the reload to finish');
    polling = false;
    await poller;
    expect(answers.filter((a) => a === 'refused')).toEqual([]);
    // A kept-alive connection to a worker that is stopping may be told 503 (retry); nothing else.
    expect(answers.every((a) => a === 200 || a === 503)).toBe(true);
    expect(answers.filter((a) => a === 200).length).toBeGreaterThan(answers.length / 2);
    expect((c.output().match(/listening on/g) ?? []).length).toBeGreaterThanOrEqual(5);
    c.proc.kill('SIGTERM');
    // The cluster's own output tells why, should it ever stop otherwise.
    expect(await c.exited, c.output().slice(-4000)).toBe(0);
  });

  it.runIf(postgresAvailable && redisAvailable)('answers /metrics on the shared port for every worker, merged; each worker answers for itself on its own port', async () => {
    const database = sharedDatabase();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const c = runCluster(['--workers', '2'], { DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, JWT_SECRET: SECRET, PORT: String(port), HOST: '127.0.0.1' });
    await waitFor(() => (c.output().match(/metrics on http/g) ?? []).length >= 2, 30_000, 'two workers listening');
    const internal = [...c.output().matchAll(/worker \d+ metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/g)].map((m) => m[1]!);
    expect(internal).toHaveLength(2);
    const market = await openMarket(url, 'metrics', { products: 2, bidders: 4 });
    // Four loops on four connections, which the primary hands to the two workers in turn.
    const storm = bidStorm(url, market, 4);
    await new Promise((r) => setTimeout(r, 1500));
    await storm.stop();
    expect(storm.bad).toEqual([]);
    const accepted = storm.accepted.length;
    expect(accepted).toBeGreaterThan(10);

    /** The sum of a series' samples that carry every label given (each worker's series has its own `worker`). */
    const total = (text: string, name: string, labels: string[] = []) => text.split('\n')
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .filter((line) => labels.every((l) => line.slice(0, line.lastIndexOf(' ')).includes(l)))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    const workers = (text: string) => [...new Set([...text.matchAll(/worker="(\d+)"/g)].map((m) => m[1]))].sort();
    const text = async (u: string) => {
      const res = await fetch(u);
      expect(res.status, u).toBe(200);
      return res.text();
    };
    const ACCEPTED = ['result="accepted"', 'code=""'];
    const merged = await text(`${url}/metrics`);
    expect(total(merged, 'auction_metrics_processes')).toBe(2);
    expect(total(merged, 'auction_bids_total', ACCEPTED)).toBe(accepted);
    // Each worker's series apart, by its slot.
    expect(workers(merged)).toEqual(['0', '1']);
    // One process of the installation keeps the clock; only it reads the outbox.
    expect(total(merged, 'auction_scheduler_leader')).toBe(1);
    expect(total(merged, 'auction_mail_outbox_backlog')).toBe(0);
    const each = await Promise.all(internal.map(text));
    const perWorker = each.map((t) => total(t, 'auction_bids_total', ACCEPTED));
    expect(perWorker.reduce((a, b) => a + b, 0)).toBe(accepted);
    expect(perWorker.every((n) => n > 0), `bids per worker ${perWorker.join(', ')}`).toBe(true);
    expect(each.map((t) => total(t, 'auction_scheduler_leader')).sort()).toEqual([0, 1]);
    // The internal ports are this machine's only.
    for (const u of internal) expect(new URL(u).hostname).toBe('127.0.0.1');
    // A reload's new workers take the old ones' slots: two series per counter still, each started again
    // (a reset Prometheus reads as one), never a sum that fell because a worker left.
    c.proc.kill('SIGHUP');
    await waitFor(() => c.output().includes('every worker replaced'), 40_000, 'the reload to finish');
    await waitFor(() => (c.output().match(/metrics on http/g) ?? []).length >= 4, 10_000, 'the new workers\' metrics ports');
    const after = await text(`${url}/metrics`);
    expect(workers(after)).toEqual(['0', '1']);
    expect(total(after, 'auction_metrics_processes')).toBe(2);
    expect(total(after, 'auction_bids_total', ACCEPTED)).toBe(0);
    c.proc.kill('SIGTERM');
    // The cluster's own output tells why, should it ever stop otherwise.
    expect(await c.exited, c.output().slice(-4000)).toBe(0);
  });
});
