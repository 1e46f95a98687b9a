/**
 * `npm run bench`: what one node carries. Starts the production server on a temp database (or uses
 * `--url`), creates bidders (`--bidders`, 100 by default), read users, watcher accounts and an auction
 * through the API, then measures in phases:
 *   (s0) storm without watchers: the storm below, before the watchers connect, for `storm_ratio`
 *        (skipped with `--no-baseline-storm` or `--watchers 0`);
 *   then opens `--watchers` sockets in a child process (they start from the products' versions then);
 *   (a) ceiling: closed loops of `--concurrency` connections for `--seconds` each, first on
 *       POST /api/wallet with `--readers` (100) users' tokens in turn, then on GET /api/health (no auth)
 *       → `ceiling_rps`, `health_rps`, `read_ratio` = wallet / health;
 *   (b) storm: the same closed loop bidding ever higher on `--products` products, bidders in turn
 *       (amounts keep rising across every phase) → `storm_bid_rps`, `storm_ratio` = storm / (s0);
 *       with `--clients`, both storms' bids come from simulated web clients instead of autocannon:
 *       a connection each, the browser's headers, a body built per bid and the amount the lot shows,
 *       so bids race at the minimum as real ones do (scripts/lib/bid-clients.ts; `storm_load`);
 *   (c) drain: waits until every watcher holds every product's newest state;
 *   (d) open loop: bids at a fixed `--rate` for `--seconds`, `--runs` times back to back → bid latency
 *       and broadcast latency (until the LAST watcher has the bid's state), per run
 *       (`bid_p99_runs_ms`, `broadcast_p99_runs_ms`; the single fields are the first run's).
 * `--order default` runs (a) (b) (c) (d); `--order storm-first` runs (b) (a) (c) (d), the harsher one:
 * the open loop comes right after the storm and the reads.
 * With `--idle-watchers N`, first (on the fresh server) the resident memory with N idle watchers.
 * `--live-frame-ms N` starts the server with LIVE_FRAME_MS=N (0: every event at once, unmerged), so one
 * sitting can compare merged and unmerged delivery; the result names the interval it ran with.
 * The server's resident memory (VmRSS) after each phase is in `rss_mb` (boot = once it answers, start =
 * after the setup, open_loop = after the first run, end = after the last one; null with `--url`), its
 * peak (VmHWM) in `server_peak_rss_mb`.
 * Prints a table (stdout) and the goals check (stderr; the goals are in docs/performance.md#hardening-watchers-get-state-steady-tails-fast-reads-2026-11-24), neither with `--quiet`, then one JSON
 * line, last on stdout, with every figure, lost/out-of-order events over all runs, and `invariant_ok` from a full money
 * audit. Rate limits are off for its server, and so is the cap on connections per address
 * (MAX_CONNECTIONS_PER_IP=0: every watcher and load connection comes from 127.0.0.1; a server given
 * with `--url` needs the same). `--server-args "…"` passes Node flags to the server it
 * starts (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` for a profile of the whole run).
 *
 * CPU per request: the server process's user + system time (/proc/<pid>/stat) read before and after
 * each measured phase ((s0), wallet, health, (b), (d) over every run), divided by the requests answered
 * → `server_cpu_us_per_req` (null with `--url` unless `--server-pid N`); with the PostgreSQL store, the
 * same over every PostgreSQL process on this machine → `pg_cpu_us_per_req` (other databases' work on
 * that PostgreSQL counts too), and over the server's own backends alone → `pg_backend_cpu_us_per_req`
 * (found by the client ports of the server's connections). `server_cpu_us_per_bid`, `pg_cpu_us_per_bid`
 * and `pg_backend_cpu_us_per_bid` are the (s0) storm's when it ran, else (b)'s.
 * pgbench: with the PostgreSQL store (or `--pgbench`; `--no-pgbench` skips it), right before the first
 * storm, pgbench's TPC-B-like script on a scratch database (scale `--pgbench-scale`, 10; `--concurrency`
 * clients; `--seconds`) → `pgbench_tps` and `storm_vs_pgbench` = that storm's bid req/s / pgbench tps
 * (scripts/lib/pgbench.ts). If it cannot run, the fields are null and `pgbench_note` says why.
 *
 * `npm run bench -- --catalogue N` measures a catalogue of N auctions instead (scripts/bench-catalogue.ts).
 *
 * The store: a temporary SQLite file by default; with `DATABASE_URL=postgres://…` a fresh schema in
 * that PostgreSQL database (dropped afterwards). The JSON line says which (`store`).
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { isPostgresUrl } from '../server/src/db/index.js';
import { type StormResult } from './lib/bid-clients.js';
import { cpuMeter } from './lib/bench/cpu.js';
import { printGoals } from './lib/bench/goals.js';
import { bidLoad, now, openLoop, type Run } from './lib/bench/load.js';
import { rssMb, startServer, type Server } from './lib/bench/server.js';
import { asker, idleWatchers, watchersProcess, type Report } from './lib/bench/watchers.js';
import { runPgbench, type PgbenchResult } from './lib/pgbench.js';
import { auditDatabase } from './lib/server-harness.js';

// `--catalogue N`: the catalogue's own benchmark (scripts/bench-catalogue.ts), with its own options.
if (process.argv.slice(2).some((a) => a === '--catalogue' || a.startsWith('--catalogue='))) {
  const { benchCatalogue } = await import('./bench-catalogue.js');
  await benchCatalogue(process.argv.slice(2)).then(() => process.exit(0), (err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

const { values: opt } = parseArgs({
  options: {
    url: { type: 'string' },
    watchers: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '8' },
    products: { type: 'string', default: '10' },
    rate: { type: 'string', default: '100' },
    bidders: { type: 'string', default: '100' },
    readers: { type: 'string', default: '100' },
    runs: { type: 'string', default: '1' },
    order: { type: 'string', default: 'default' },
    // LIVE_FRAME_MS of the server it starts (the server's own default, 30, when absent).
    'live-frame-ms': { type: 'string' },
    'no-baseline-storm': { type: 'boolean', default: false },
    'idle-watchers': { type: 'string', default: '0' },
    quiet: { type: 'boolean', default: false },
    // The storms' bids from simulated web clients (scripts/lib/bid-clients.ts) instead of autocannon.
    clients: { type: 'boolean', default: false },
    // Node flags for the server it starts, e.g. `--server-args "--cpu-prof --cpu-prof-dir=/tmp/prof"`.
    'server-args': { type: 'string', default: '' },
    // With `--url`: the server's process id, for its CPU per request.
    'server-pid': { type: 'string' },
    pgbench: { type: 'boolean', default: false },
    'no-pgbench': { type: 'boolean', default: false },
    'pgbench-scale': { type: 'string', default: '10' },
  },
});
const N = {
  watchers: Number(opt.watchers), concurrency: Number(opt.concurrency), seconds: Number(opt.seconds),
  products: Number(opt.products), rate: Number(opt.rate), bidders: Number(opt.bidders),
  readers: Number(opt.readers), runs: Number(opt.runs), idleWatchers: Number(opt['idle-watchers']),
};
const ORDER = opt.order;
if (ORDER !== 'default' && ORDER !== 'storm-first') throw new Error(`--order must be default or storm-first, not ${ORDER}`);
if (!Number.isInteger(N.runs) || N.runs < 1) throw new Error('--runs must be a positive integer');
if (!(N.bidders >= 1) || !(N.readers >= 1)) throw new Error('--bidders and --readers must be at least 1');
const LIVE_FRAME_MS = opt['live-frame-ms'] === undefined ? null : Number(opt['live-frame-ms']);
if (LIVE_FRAME_MS !== null && !(Number.isInteger(LIVE_FRAME_MS) && LIVE_FRAME_MS >= 0 && LIVE_FRAME_MS <= 60_000)) throw new Error('--live-frame-ms must be an integer from 0 to 60000');
if (LIVE_FRAME_MS !== null && opt.url) throw new Error('--live-frame-ms sets the interval of the server the bench starts: set LIVE_FRAME_MS on the server given with --url instead');
const BASELINE_STORM = N.watchers > 0 && !opt['no-baseline-storm'];
const log = (msg: string) => { if (!opt.quiet) process.stderr.write(`${msg}\n`); };
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 100) / 100;
};

const STORE = isPostgresUrl(process.env.DATABASE_URL ?? '') ? 'postgres' : 'sqlite';
// pgbench runs on the PostgreSQL the store uses (or, forced with `--pgbench` on SQLite, on the test one).
const PGBENCH = !opt['no-pgbench'] && (STORE === 'postgres' || opt.pgbench);
const PGBENCH_URL = STORE === 'postgres' ? process.env.DATABASE_URL! : 'postgres://postgres@127.0.0.1:5432/test';

async function main() {
  // Against a running server (`--url`, e.g. `npm run cluster`), DATABASE_URL names its store for the audit.
  const server: Server = opt.url
    ? { url: opt.url.replace(/\/$/, ''), pid: undefined, databaseUrl: process.env.DATABASE_URL ?? null, stop: async () => undefined, cleanup: async () => undefined }
    : await startServer({ store: STORE, serverArgs: opt['server-args'], liveFrameMs: LIVE_FRAME_MS });
  const base = server.url;
  const bootRss = rssMb(server.pid, 'VmRSS');
  // The server whose CPU is measured: the one started here, or `--server-pid` with `--url`.
  const serverPid = server.pid ?? (opt['server-pid'] ? Number(opt['server-pid']) : undefined);
  if (opt.url && !serverPid) log('no --server-pid: the server\'s CPU per request is not measured');
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

  log(`setup: ${N.bidders} bidders, ${Math.max(0, N.readers - N.bidders)} more read users, ${N.products} products, ${N.watchers} watchers, order ${ORDER}`
    + `${opt.url ? '' : '; rate limits and the cap on connections per address are off (RATE_LIMIT=off, MAX_CONNECTIONS_PER_IP=0)'}`);
  const admin = await signUp('admin', `bench_admin_${tag}`);
  const productIds: string[] = [];
  for (let i = 0; i < N.products; i++) {
    const id = `BP-${tag}-${i}`;
    await api('POST', '/admin/product', { id, name: `Bench product ${i}`, description: 'benchmark' }, admin);
    productIds.push(id);
  }
  const auctionId = `BA-${tag}`;
  await api('POST', '/admin/auction', { id: auctionId, name: 'Bench auction', valid_until: new Date(Date.now() + 3600e3).toISOString(), product_ids: productIds }, admin);
  // An account may hold at most 20 live sockets (docs/live-protocol.md#socket-lifetime-and-limits): the watchers share accounts 20 at a time.
  const watcherAccounts = Math.max(1, Math.ceil(Math.max(N.watchers, N.idleWatchers) / 20));
  const watcherTokens: string[] = [];
  for (let i = 0; i < watcherAccounts; i += 10) {
    watcherTokens.push(...await Promise.all(Array.from({ length: Math.min(10, watcherAccounts - i) }, (_, j) => signUp('user', `bench_watch_${tag}_${i + j}`))));
  }

  // (0) idle: on the fresh server (before the bidders' sign-ups), the resident memory it takes to hold
  // N watchers that do nothing.
  let idle: { rss_before_mb: number | null; rss_mb: number | null } | null = null;
  if (N.idleWatchers > 0) idle = await idleWatchers({ pid: server.pid, base, tokens: watcherTokens, auctionId, watchers: N.idleWatchers, log });

  const bidders: string[] = [];
  for (let i = 0; i < N.bidders; i += 10) {
    bidders.push(...await Promise.all(Array.from({ length: Math.min(10, N.bidders - i) }, async (_, j) => {
      const t = await signUp('user', `bench_${tag}_${i + j}`);
      for (let k = 0; k < 50; k++) await api('POST', '/wallet/topup', { amount: 100_000 }, t);
      await api('POST', '/auctions/register', { auction_id: auctionId }, t);
      return t;
    })));
  }
  // The read ceiling's tokens: the bidders', and plain users when there are fewer bidders than readers.
  const readers = bidders.slice(0, N.readers);
  for (let i = readers.length; i < N.readers; i += 10) {
    readers.push(...await Promise.all(Array.from({ length: Math.min(10, N.readers - i) }, (_, j) => signUp('user', `bench_read_${tag}_${i + j}`))));
  }

  /** The server's resident memory after each phase (VmRSS). */
  const rss: Record<'boot' | 'start' | 'storm_nowatch' | 'watchers_connected' | 'storm' | 'ceiling' | 'drain' | 'open_loop' | 'end', number | null> = {
    boot: bootRss, start: rssMb(server.pid, 'VmRSS'), storm_nowatch: null, watchers_connected: null, storm: null, ceiling: null, drain: null, open_loop: null, end: null,
  };
  const productVersions = async () => {
    const res = await fetch(`${base}/api/auctions/${auctionId}/products`, { headers: { authorization: `Bearer ${bidders[0]}` } });
    if (!res.ok) throw new Error(`GET /auctions/${auctionId}/products → ${res.status}`);
    return Object.fromEntries((await res.json() as { id: string; version: number }[]).map((p) => [p.id, p.version]));
  };

  // CPU microseconds per request completed, per phase (scripts/lib/bench/cpu.ts).
  const pgPort = STORE === 'postgres' ? Number(new URL(process.env.DATABASE_URL!).port || 5432) : 0;
  const cpu = cpuMeter({ postgres: STORE === 'postgres', serverPid, pgPort });
  const { measured, serverCpu, pgCpu, backendCpu } = cpu;
  /** Requests autocannon got an answer to. */
  const answeredCount = (r: StormResult) => r.requests.total;

  // pgbench on a scratch database, once, right before the first storm: the same machine state as the bids.
  let pgbench: PgbenchResult | null = null;
  const pgbenchOnce = async () => {
    if (!PGBENCH || pgbench) return;
    pgbench = await runPgbench({ url: PGBENCH_URL, clients: N.concurrency, seconds: N.seconds, scale: Number(opt['pgbench-scale']), log });
    log(pgbench.tps === null ? `pgbench: not measured (${pgbench.note})` : `pgbench: ${pgbench.tps} tps (${pgbench.note})`);
  };

  // Every bid is higher than the one before it, whichever phase sends it (scripts/lib/bench/load.ts).
  const { nextBid, runStorm } = bidLoad({ base, bidders, productIds, auctionId, concurrency: N.concurrency, seconds: N.seconds, clients: opt.clients });

  // (s0) the storm without watchers, for the ratio.
  let stormNoWatch: StormResult | null = null;
  if (BASELINE_STORM) {
    await pgbenchOnce();
    log(`(s0) storm without watchers: bids on ${N.products} products, ${N.concurrency} connections, ${N.seconds}s`);
    stormNoWatch = await measured('storm_nowatch', runStorm, answeredCount);
    rss.storm_nowatch = rssMb(server.pid, 'VmRSS');
    log(`(s0) ${Math.round(stormNoWatch.requests.average)} bids/s`);
  }

  const child = watchersProcess();
  const ask = asker(child);
  // The watchers count from the versions the products have when they connect.
  const versionsAtWatch = await productVersions();
  if (N.watchers > 0) {
    await ask({ type: 'start', url: base, tokens: watcherTokens, auctionId, watchers: N.watchers, versions: versionsAtWatch }, 'ready');
    rss.watchers_connected = rssMb(server.pid, 'VmRSS');
    log(`watchers connected: ${N.watchers}`);
  }

  // (a) ceiling: an authenticated one-row read with many users' tokens, then the unauthenticated health check.
  const runCeiling = async () => {
    log(`(a) ceiling: POST /api/wallet (${readers.length} users' tokens), then GET /api/health, ${N.concurrency} connections, ${N.seconds}s each`);
    // One prebuilt request per token, which every connection cycles through: a setupRequest callback
    // per request costs the load generator more than the server's answer (it, not the server, was full).
    const wallet = await measured('wallet', () => autocannon({
      url: `${base}/api/wallet`, method: 'POST', connections: N.concurrency, duration: N.seconds,
      requests: readers.map((token) => ({ method: 'POST' as const, path: '/api/wallet', body: '{}', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } })),
    }), answeredCount);
    const health = await measured('health', () => autocannon({ url: `${base}/api/health`, method: 'GET', connections: N.concurrency, duration: N.seconds }), answeredCount);
    rss.ceiling = rssMb(server.pid, 'VmRSS');
    log(`(a) wallet ${Math.round(wallet.requests.average)} req/s, health ${Math.round(health.requests.average)} req/s`);
    return { wallet, health };
  };
  // (b) storm, with the watchers connected.
  const runStormPhase = async () => {
    await pgbenchOnce();
    log(`(b) storm: bids on ${N.products} products, ${N.concurrency} connections, ${N.seconds}s, ${N.watchers} watchers`);
    const result = await measured('storm', runStorm, answeredCount);
    rss.storm = rssMb(server.pid, 'VmRSS');
    log(`(b) ${Math.round(result.requests.average)} bids/s`);
    return result;
  };
  let c: autocannon.Result;
  let h: autocannon.Result;
  let st: StormResult;
  if (ORDER === 'storm-first') {
    st = await runStormPhase();
    ({ wallet: c, health: h } = await runCeiling());
  } else {
    ({ wallet: c, health: h } = await runCeiling());
    st = await runStormPhase();
  }
  const accepted = st['2xx'];

  // (c) drain: until every watcher holds every product's newest state (all accepted bids so far).
  let drainMs: number | null = null;
  if (N.watchers > 0) {
    const latest = await productVersions();
    const keys = Object.entries(latest).filter(([id, v]) => v > (versionsAtWatch[id] ?? 0)).map(([id, v]) => `${id}@${v}`);
    const t0 = now();
    for (;;) {
      const r = await ask<Report>({ type: 'report', keys }, 'report');
      if (keys.every((k) => k in r.complete) || now() - t0 > 120_000) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    drainMs = Math.round(now() - t0);
    rss.drain = rssMb(server.pid, 'VmRSS');
    log(`(c) drained in ${drainMs} ms`);
  }

  // (d) open loop at a fixed rate, whatever the answers, `--runs` times back to back.
  const runs: Run[] = [];
  // The CPU per bid of the open loop is over every run, the watchers' deliveries included.
  await measured('open_loop', async () => {
    for (let k = 1; k <= N.runs; k++) {
      log(`(d) open loop${N.runs > 1 ? ` ${k}/${N.runs}` : ''}: ${N.rate} bids/s for ${N.seconds}s`);
      const run = await openLoop({ base, rate: N.rate, seconds: N.seconds, watchers: N.watchers, nextBid, ask });
      runs.push(run);
      if (k === 1) rss.open_loop = rssMb(server.pid, 'VmRSS');
      const delivery = N.watchers > 0 ? `; broadcast p50 ${pct(run.broadcast, 50)} ms, p99 ${pct(run.broadcast, 99)} ms${run.lost ? `, ${run.lost} lost` : ''}` : '';
      log(`(d) run ${k}: bid p50 ${pct(run.latencies, 50)} ms, p99 ${pct(run.latencies, 99)} ms${delivery}`);
    }
  }, () => runs.reduce((n, r) => n + r.latencies.length, 0));
  const first = runs[0]!;
  const finalReport = runs.at(-1)!.report;

  rss.end = rssMb(server.pid, 'VmRSS');
  const peakRss = rssMb(server.pid);
  await server.stop();
  // The full money audit of the store the server used (after it stopped).
  const invariantOk = server.databaseUrl ? (await auditDatabase(server.databaseUrl)).ok : null;
  await server.cleanup();
  child.send({ type: 'stop' });

  const ratio = (a: number, b: number) => Math.round((a / Math.max(1, b)) * 100) / 100;
  // The storm a goal compares: the one without watchers when it ran, else the storm.
  const bidStorm = stormNoWatch ?? st;
  const pgb = pgbench as PgbenchResult | null;
  const result = {
    store: opt.url ? null : STORE,
    order: ORDER, runs: N.runs,
    // Who sent the storms' bids: autocannon, or simulated web clients (`--clients`).
    storm_load: opt.clients ? 'clients' : 'autocannon',
    // The frame interval the server ran with (null: a server given with --url, whose setting is its own).
    live_frame_ms: opt.url ? null : LIVE_FRAME_MS ?? Number(process.env.LIVE_FRAME_MS ?? 30),
    watchers: N.watchers, concurrency: N.concurrency, seconds: N.seconds, products: N.products, bidders: N.bidders, readers: readers.length,
    ceiling_rps: Math.round(c.requests.average),
    ceiling_non2xx: c.non2xx + c.errors,
    health_rps: Math.round(h.requests.average),
    read_ratio: ratio(c.requests.average, h.requests.average),
    storm_nowatch_rps: stormNoWatch ? Math.round(stormNoWatch.requests.average) : null,
    storm_bid_rps: Math.round(st.requests.average),
    storm_ratio: stormNoWatch ? ratio(st.requests.average, stormNoWatch.requests.average) : null,
    storm_accepted: accepted,
    storm_errors: st.errors + st['5xx'],
    ratio_storm_ceiling: ratio(st.requests.average, c.requests.average),
    drain_ms: drainMs ?? 0,
    open_rate: N.rate,
    bid_p50_ms: pct(first.latencies, 50), bid_p95_ms: pct(first.latencies, 95), bid_p99_ms: pct(first.latencies, 99),
    broadcast_p50_ms: pct(first.broadcast, 50), broadcast_p99_ms: pct(first.broadcast, 99),
    bid_p99_runs_ms: runs.map((r) => pct(r.latencies, 99)),
    broadcast_p99_runs_ms: runs.map((r) => pct(r.broadcast, 99)),
    // Accepted bids (of every run) whose state (its version, or a newer one) did not reach every watcher.
    events_lost: runs.reduce((n, r) => n + r.lost, 0),
    events_out_of_order: finalReport?.outOfOrder ?? 0,
    // Versions a watcher reached through a newer event (another process's frame came first): merged, not lost.
    versions_superseded: finalReport?.superseded ?? 0,
    frames_received: finalReport?.frames ?? 0,
    server_5xx: runs.reduce((n, r) => n + r.status5xx, 0) + st['5xx'] + c['5xx'] + (stormNoWatch?.['5xx'] ?? 0),
    rss_mb: opt.url ? null : rss,
    server_peak_rss_mb: peakRss,
    invariant_ok: invariantOk,
    idle_watchers: N.idleWatchers,
    idle_rss_before_mb: idle?.rss_before_mb ?? null,
    idle_rss_mb: idle?.rss_mb ?? null,
    // CPU microseconds per request answered, per phase (null: not run, or no process to read).
    server_cpu_us_per_req: serverPid ? serverCpu : null,
    // Every PostgreSQL process on this machine (other databases' work included), then the server's backends alone.
    pg_cpu_us_per_req: cpu.pgVisible ? pgCpu : null,
    pg_backend_cpu_us_per_req: cpu.backendsVisible ? backendCpu : null,
    // Per bid in the storm without watchers when it ran, else in the storm.
    server_cpu_us_per_bid: stormNoWatch ? serverCpu.storm_nowatch : serverCpu.storm,
    pg_cpu_us_per_bid: stormNoWatch ? pgCpu.storm_nowatch : pgCpu.storm,
    pg_backend_cpu_us_per_bid: stormNoWatch ? backendCpu.storm_nowatch : backendCpu.storm,
    pgbench_tps: pgb?.tps ?? null,
    pgbench_pg_cpu_us_per_tx: pgb?.pgCpuUsPerTx ?? null,
    pgbench_backend_cpu_us_per_tx: pgb?.backendCpuUsPerTx ?? null,
    storm_vs_pgbench: pgb?.tps ? Math.round((bidStorm.requests.average / pgb.tps) * 100) / 100 : null,
    pgbench_note: pgb ? pgb.note : PGBENCH ? null : 'not run (SQLite store without --pgbench, or --no-pgbench)',
  };
  if (!opt.quiet) {
    console.table(Object.entries(result).map(([k, v]) => ({ figure: k, value: v !== null && typeof v === 'object' ? JSON.stringify(v) : v })));
    printGoals(result);
  }
  console.log(JSON.stringify(result));
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
