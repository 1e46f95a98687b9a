/**
 * `npm run bench`: what one node carries. Starts the production server on a temp database (or uses
 * `--url`), creates bidders, watcher accounts and an auction through the API, opens `--watchers`
 * sockets in a child process, then measures in order:
 *   (a) ceiling: a closed loop of `--concurrency` connections on POST /api/wallet for `--seconds`;
 *   (b) storm: the same closed loop bidding ever higher on `--products` products;
 *   (c) drain: waits until every watcher holds every accepted bid;
 *   (d) open loop: bids at a fixed `--rate` → bid latency and broadcast latency (to the LAST watcher).
 * With `--idle-watchers N`, first (on the fresh server) the resident memory with N idle watchers.
 * Prints a table and one JSON line with every figure, lost/out-of-order events, the server's peak RSS,
 * storm/ceiling, and `invariant_ok` from a full money audit. Rate limits are off for its server.
 *
 * The store: a temporary SQLite file by default; with `DATABASE_URL=postgres://…` a fresh schema in
 * that PostgreSQL database (dropped afterwards). The JSON line says which (`store`).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freshTestDatabase } from '../server/src/db/testing.js';
import { isPostgresUrl, openStore } from '../server/src/db/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: opt } = parseArgs({
  options: {
    url: { type: 'string' },
    watchers: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '8' },
    products: { type: 'string', default: '10' },
    rate: { type: 'string', default: '100' },
    bidders: { type: 'string', default: '50' },
    'idle-watchers': { type: 'string', default: '0' },
    quiet: { type: 'boolean', default: false },
  },
});
const N = {
  watchers: Number(opt.watchers), concurrency: Number(opt.concurrency), seconds: Number(opt.seconds),
  products: Number(opt.products), rate: Number(opt.rate), bidders: Number(opt.bidders),
  idleWatchers: Number(opt['idle-watchers']),
};
const log = (msg: string) => { if (!opt.quiet) process.stderr.write(`${msg}\n`); };
const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Server { url: string; pid: number | undefined; databaseUrl: string | null; stop: () => Promise<void>; cleanup: () => Promise<void> }

const STORE = isPostgresUrl(process.env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite';

async function startServer(): Promise<Server> {
  const { ensureBuilt } = await import('./build.mjs') as { ensureBuilt: (o: { quiet: boolean; client: boolean }) => Promise<void> };
  // The API is what is measured: the client bundle is not needed.
  await ensureBuilt({ quiet: true, client: false });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-bench-'));
  // A fresh PostgreSQL schema in DATABASE_URL's database, or a SQLite file in a temporary folder.
  const postgres = STORE === 'postgres' ? freshTestDatabase('postgres', process.env.DATABASE_URL, { durable: true }) : null;
  const databaseUrl = postgres?.url ?? path.join(dir, 'bench.db');
  const port = await freePort();
  const proc: ChildProcess = spawn(process.execPath, ['server/dist/index.js'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, JWT_SECRET: randomBytes(32).toString('hex'), RATE_LIMIT: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try { if ((await fetch(`${url}/api/health`)).ok) break; } catch { /* starting */ }
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url, pid: proc.pid, databaseUrl,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    },
    cleanup: async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await postgres?.drop();
    },
  };
}

function rssMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number | null {
  if (!pid) return null;
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** The full money audit of the store the server used (after it stopped). */
async function audit(databaseUrl: string | null): Promise<boolean | null> {
  if (!databaseUrl) return null;
  const store = await openStore(databaseUrl);
  try {
    return (await store.reads.auditMoney()).ok;
  } finally {
    await store.close();
  }
}

async function main() {
  // Against a running server (`--url`, e.g. `npm run cluster`), DATABASE_URL names its store for the audit.
  const server: Server = opt.url
    ? { url: opt.url.replace(/\/$/, ''), pid: undefined, databaseUrl: process.env.DATABASE_URL ?? null, stop: async () => undefined, cleanup: async () => undefined }
    : await startServer();
  const base = server.url;
  const api = async (method: string, p: string, body?: unknown, token?: string) => {
    const res = await fetch(`${base}/api${p}`, {
      method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({})) as Record<string, unknown>;
    if (res.status >= 400) throw new Error(`${method} ${p} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const tag = Date.now().toString(36);
  const signUp = async (kind: 'user' | 'admin', username: string) => {
    const prefix = kind === 'admin' ? '/admin' : '';
    await api('POST', `${prefix}/register`, { name: username, username, password: 'bench123', mobile_number: '9000000000' });
    return (await api('POST', `${prefix}/login`, { username, password: 'bench123' })).token as string;
  };

  log(`setup: ${N.bidders} bidders, ${N.products} products, ${N.watchers} watchers`);
  const admin = await signUp('admin', `bench_admin_${tag}`);
  const productIds: string[] = [];
  for (let i = 0; i < N.products; i++) {
    const id = `BP-${tag}-${i}`;
    await api('POST', '/admin/product', { id, name: `Bench product ${i}`, description: 'benchmark' }, admin);
    productIds.push(id);
  }
  const auctionId = `BA-${tag}`;
  await api('POST', '/admin/auction', { id: auctionId, name: 'Bench auction', valid_until: new Date(Date.now() + 3600e3).toISOString(), product_ids: productIds }, admin);
  // An account may hold at most 20 live sockets (DESIGN §6): the watchers share accounts 20 at a time.
  const watcherAccounts = Math.max(1, Math.ceil(Math.max(N.watchers, N.idleWatchers) / 20));
  const watcherTokens: string[] = [];
  for (let i = 0; i < watcherAccounts; i += 10) {
    watcherTokens.push(...await Promise.all(Array.from({ length: Math.min(10, watcherAccounts - i) }, (_, j) => signUp('user', `bench_watch_${tag}_${i + j}`))));
  }

  const watchersProcess = () => fork(fileURLToPath(new URL('./bench-watchers.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });

  // (0) idle: on the fresh server (before the bidders' sign-ups), the resident memory it takes to hold
  // N watchers that do nothing.
  let idle: { rss_before_mb: number | null; rss_mb: number | null } | null = null;
  if (N.idleWatchers > 0) {
    const before = rssMb(server.pid, 'VmRSS');
    const idler = watchersProcess();
    await new Promise<void>((resolve, reject) => {
      idler.on('message', (m: { type: string; message?: string }) => {
        if (m.type === 'ready') resolve();
        if (m.type === 'error') reject(new Error(m.message));
      });
      idler.send({ type: 'start', url: base, tokens: watcherTokens, auctionId, watchers: N.idleWatchers });
    });
    // Let the connection bursts' garbage be collected before reading.
    await new Promise((r) => setTimeout(r, 5000));
    idle = { rss_before_mb: before, rss_mb: rssMb(server.pid, 'VmRSS') };
    log(`(0) idle: ${N.idleWatchers} watchers connected, server RSS ${idle.rss_before_mb} → ${idle.rss_mb} MB`);
    idler.send({ type: 'stop' });
    await new Promise((r) => idler.once('exit', r));
  }

  const bidders: string[] = [];
  for (let i = 0; i < N.bidders; i += 10) {
    bidders.push(...await Promise.all(Array.from({ length: Math.min(10, N.bidders - i) }, async (_, j) => {
      const t = await signUp('user', `bench_${tag}_${i + j}`);
      for (let k = 0; k < 50; k++) await api('POST', '/wallet/topup', { amount: 100_000 }, t);
      await api('POST', '/auctions/register', { auction_id: auctionId }, t);
      return t;
    })));
  }
  const child = watchersProcess();
  const ask = <T>(msg: object, want: string) => new Promise<T>((resolve, reject) => {
    const on = (m: { type: string; message?: string }) => {
      if (m.type === 'error') { child.off('message', on); reject(new Error(m.message)); }
      if (m.type === want) { child.off('message', on); resolve(m as T); }
    };
    child.on('message', on);
    child.send(msg);
  });
  if (N.watchers > 0) {
    await ask({ type: 'start', url: base, tokens: watcherTokens, auctionId, watchers: N.watchers }, 'ready');
    log(`watchers connected: ${N.watchers}`);
  }

  // (a) ceiling
  log(`(a) ceiling: POST /api/wallet, ${N.concurrency} connections, ${N.seconds}s`);
  const ceiling = await autocannon({
    url: `${base}/api/wallet`, method: 'POST', connections: N.concurrency, duration: N.seconds,
    headers: { authorization: `Bearer ${bidders[0]}`, 'content-type': 'application/json' }, body: '{}',
  });

  // (b) storm: ever higher amounts, round robin over products and bidders.
  log(`(b) storm: bids on ${N.products} products, ${N.concurrency} connections, ${N.seconds}s`);
  let seq = 0;
  const storm = await autocannon({
    url: `${base}/api/bid`, method: 'POST', connections: N.concurrency, duration: N.seconds,
    requests: [{
      setupRequest: (req) => {
        const i = seq++;
        return {
          ...req,
          headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${bidders[i % bidders.length]}` },
          body: JSON.stringify({ product_id: productIds[i % productIds.length], bid_amount: 10 + Math.floor(i / productIds.length) }),
        };
      },
    }],
  });
  const accepted = storm['2xx'];

  // (c) drain
  type Report = { complete: Record<string, number>; partial: number; superseded: number; outOfOrder: number; frames: number; events: number };
  let drainMs = 0;
  if (N.watchers > 0) {
    const t0 = now();
    for (;;) {
      const r = await ask<Report>({ type: 'report' }, 'report');
      if (Object.keys(r.complete).length >= accepted || now() - t0 > 120_000) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    drainMs = Math.round(now() - t0);
    log(`(c) drained in ${drainMs} ms`);
  }

  // (d) open loop at a fixed rate, whatever the answers.
  log(`(d) open loop: ${N.rate} bids/s for ${N.seconds}s`);
  const latencies: number[] = [];
  /** `product@version` of each accepted bid → when its answer arrived. */
  const answered = new Map<string, number>();
  const inflight: Promise<void>[] = [];
  let status5xx = 0;
  const total = N.rate * N.seconds;
  const t0 = now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / N.rate;
    const wait = due - now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const k = seq++;
    const sent = now();
    const productId = productIds[k % productIds.length]!;
    inflight.push(fetch(`${base}/api/bid`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bidders[k % bidders.length]}` },
      body: JSON.stringify({ product_id: productId, bid_amount: 10 + Math.floor(k / productIds.length) }),
    }).then(async (res) => {
      const done = now();
      latencies.push(done - sent);
      if (res.status >= 500) status5xx++;
      const body = await res.json() as { version?: number };
      if (res.status === 201 && body.version !== undefined) answered.set(`${productId}@${body.version}`, done);
    }));
  }
  await Promise.all(inflight);
  const broadcast: number[] = [];
  let report: Report | null = null;
  if (N.watchers > 0) {
    const t1 = now();
    for (;;) {
      report = await ask<Report>({ type: 'report' }, 'report');
      if ([...answered.keys()].every((id) => id in report!.complete) || now() - t1 > 30_000) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const [key, at] of answered) {
      const last = report.complete[key];
      if (last !== undefined) broadcast.push(Math.max(0, last - at));
    }
  }

  const rss = rssMb(server.pid);
  await server.stop();
  const invariantOk = await audit(server.databaseUrl);
  await server.cleanup();
  child.send({ type: 'stop' });

  const result = {
    store: opt.url ? null : STORE,
    watchers: N.watchers, concurrency: N.concurrency, seconds: N.seconds, products: N.products,
    ceiling_rps: Math.round(ceiling.requests.average),
    storm_bid_rps: Math.round(storm.requests.average),
    storm_accepted: accepted,
    storm_errors: storm.errors + storm['5xx'],
    ratio_storm_ceiling: Math.round((storm.requests.average / Math.max(1, ceiling.requests.average)) * 100) / 100,
    drain_ms: drainMs,
    open_rate: N.rate,
    bid_p50_ms: pct(latencies, 50), bid_p95_ms: pct(latencies, 95), bid_p99_ms: pct(latencies, 99),
    broadcast_p50_ms: pct(broadcast, 50), broadcast_p99_ms: pct(broadcast, 99),
    // Accepted bids whose state (its version, or a newer one) did not reach every watcher.
    events_lost: report ? Math.max(0, answered.size - broadcast.length) : 0,
    events_out_of_order: report?.outOfOrder ?? 0,
    // Versions a watcher reached through a newer event (another process's frame came first): merged, not lost.
    versions_superseded: report?.superseded ?? 0,
    frames_received: report?.frames ?? 0,
    server_5xx: status5xx + storm['5xx'],
    server_peak_rss_mb: rss,
    invariant_ok: invariantOk,
    idle_watchers: N.idleWatchers,
    idle_rss_before_mb: idle?.rss_before_mb ?? null,
    idle_rss_mb: idle?.rss_mb ?? null,
  };
  if (!opt.quiet) console.table(Object.entries(result).map(([k, v]) => ({ figure: k, value: v })));
  console.log(JSON.stringify(result));
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
