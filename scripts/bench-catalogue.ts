/**
 * `npm run bench -- --catalogue N [--store sqlite|postgres]`: what a catalogue of N auctions × 10 lots
 * costs (docs/performance.md#a-catalogue-of-any-size-2026-11-27). On a fresh production server (its own port, a
 * temporary SQLite file, or with `--store postgres` a database created on `--pg-url`'s server and
 * dropped afterwards) it signs up an admin, makes a few categories, imports the N × 10 lots as CSV files
 * of at most 10,000 rows, creates the N auctions of 10 lots each through the API, signs up a bidder and
 * measures:
 *   - the import: seconds for all the lots, lots/s; and the auctions' creation;
 *   - `GET /api/catalogue/auctions` (first page: default, with a category, with q) and
 *     `GET /api/catalogue/lots?q=` (a common word, a rare one): p50/p95 over `--requests` (200) each,
 *     one after another (fewer when they take more than `--budget-seconds`, 60, at least 20), and the
 *     first page's size compressed (br, gzip) and not;
 *   - in Chromium, signed in as the bidder: Browse (/user/auctions) from navigation to the first
 *     auction card, the page's JS heap after a GC, the bytes it transferred, and the header search box
 *     (typing to first suggestion) when there is one.
 * Then the same page figures on a 20-auction catalogue (`--baseline`, 0 to skip) for the ratio.
 * Prints a table (stderr, the goals too) and one JSON line, last on stdout.
 */
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { csvRow } from '@auction/shared';
import { pageFigures } from './lib/bench/catalogue-browser.js';
import { printGoals, round } from './lib/bench/catalogue-report.js';
import { spawnServer, type ServerProcess } from './lib/server-harness.js';
import { CATEGORIES, COMMON_WORD, RARE_WORD, auctionName, makeLot, seeded } from './lib/catalogue-data.js';

const LOTS_PER_AUCTION = 10;
const FILE_ROWS = 10_000;

export async function benchCatalogue(argv: string[]): Promise<void> {
  const { values: opt } = parseArgs({
    args: argv,
    options: {
      catalogue: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
      'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
      requests: { type: 'string', default: '200' },
      'budget-seconds': { type: 'string', default: '60' },
      baseline: { type: 'string', default: '20' },
      concurrency: { type: 'string', default: '4' },
      'no-browser': { type: 'boolean', default: false },
      // Leaves the big catalogue's store behind (its SQLite file or PostgreSQL database is printed), for EXPLAIN.
      keep: { type: 'boolean', default: false },
      // Measures a store a --keep run left (its SQLite file or PostgreSQL URL) instead of building one; with --no-browser.
      reuse: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
  });
  const auctions = Number(opt.catalogue);
  const requests = Number(opt.requests);
  const baseline = Number(opt.baseline);
  if (!Number.isInteger(auctions) || auctions < 1) throw new Error('--catalogue must be a positive number of auctions');
  if (opt.store !== 'sqlite' && opt.store !== 'postgres') throw new Error('--store must be sqlite or postgres');
  const store = opt.store;
  const log = (msg: string) => { if (!opt.quiet) process.stderr.write(`${msg}\n`); };

  const { ensureBuilt } = await import('./build.mjs') as { ensureBuilt: (o: { quiet: boolean; client: boolean }) => Promise<void> };
  await ensureBuilt({ quiet: true, client: !opt['no-browser'] });

  let analyzed: string | null = null;
  const reuse = opt.reuse ?? null;
  if (reuse !== null && !opt['no-browser']) throw new Error('--reuse measures the server only: pass --no-browser');
  const run = async (n: number, full: boolean) => {
    const server = await startServer(store, opt['pg-url'], full && opt.keep, log, reuse);
    try {
      const built = reuse === null ? await buildCatalogue(server.url, n, Number(opt.concurrency), log) : await reusedCatalogue(server.url);
      // Where the autovacuum daemon is off (as on this machine's test server), the planner would work from
      // the statistics of an empty database: gather them once, as the daemon would have by now.
      if (server.psql?.('show autovacuum') === 'off') {
        const t0 = performance.now();
        server.psql('analyze');
        analyzed = `autovacuum is off: ran ANALYZE before measuring (${Math.round(performance.now() - t0)} ms)`;
        log(analyzed);
      }
      const figures = full ? await serverFigures(server.url, server.pid, built, requests, Number(opt['budget-seconds']), log) : null;
      const page = opt['no-browser'] ? null : await pageFigures(server.url, built.bidder, log);
      return { built, figures, page };
    } finally {
      await server.stop();
    }
  };

  const small = baseline > 0 && !opt['no-browser'] ? await run(baseline, false) : null;
  const big = await run(auctions, true);
  const { built, figures, page } = big;
  const result = {
    store, auctions, lots: auctions * LOTS_PER_AUCTION,
    import_s: built.importS, import_lots_per_s: Math.round((auctions * LOTS_PER_AUCTION) / built.importS),
    import_files: built.files, import_file_s: built.fileS,
    // The slowest 20,000 lots: two files in a row (the goal's size), as the catalogue had grown by then.
    import_worst_20000_s: round(Math.max(...built.fileS.map((s, i) => s + (built.fileS[i + 1] ?? (built.fileS.length === 1 ? 0 : -Infinity))))),
    auctions_create_s: built.auctionsS,
    pg_note: analyzed,
    ...figures,
    browse_first_card_ms: page?.firstCardMs ?? null,
    browse_js_heap_mb: page?.heapMb ?? null,
    browse_transfer_kib: page?.transferKib ?? null,
    browse_api_kib: page?.apiKib ?? null,
    browse_cards: page?.cards ?? null,
    header_search_ms: page?.searchMs ?? null,
    header_search_note: page?.searchNote ?? null,
    baseline_auctions: small ? baseline : null,
    baseline_first_card_ms: small?.page?.firstCardMs ?? null,
    baseline_js_heap_mb: small?.page?.heapMb ?? null,
    baseline_transfer_kib: small?.page?.transferKib ?? null,
    baseline_api_kib: small?.page?.apiKib ?? null,
    first_card_ratio: page && small?.page ? round(page.firstCardMs / Math.max(1, small.page.firstCardMs)) : null,
  };
  if (!opt.quiet) {
    console.table(Object.entries(result).map(([k, v]) => ({ figure: k, value: v !== null && typeof v === 'object' ? JSON.stringify(v) : v })));
    printGoals(result);
  }
  console.log(JSON.stringify(result));
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!);
};

interface Started { url: string; pid: number | undefined; stop: () => Promise<void>; psql: ((sql: string) => string) | null }

/** The production server (with the client) on a free port, on a store of its own. */
async function startServer(store: 'sqlite' | 'postgres', pgUrl: string, keep: boolean, log: (m: string) => void, reuse: string | null = null): Promise<Started> {
  if (reuse !== null) {
    const server = await spawnServer({
      args: ['server/dist/index.js'],
      env: { DATABASE_URL: reuse, JWT_SECRET: randomBytes(32).toString('hex'), MAX_CONNECTIONS_PER_IP: '0', PASSWORD_HASH_COST: '10' },
    });
    return { url: server.url, pid: server.proc.pid, psql: null, stop: async () => { await server.stop(); } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-bench-catalogue-'));
  let databaseUrl = path.join(dir, 'bench.db');
  let dropDatabase = async () => {};
  let psql: Started['psql'] = null;
  if (store === 'postgres') {
    const name = `bench_catalogue_${process.pid}_${randomBytes(4).toString('hex')}`;
    // psql, the client PostgreSQL ships with: only the store's own code speaks its protocol.
    const run = (url: string, sql: string) => {
      const res = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' });
      if (res.status !== 0) throw new Error(`psql ${sql}: ${res.error?.message ?? res.stderr}`);
      return res.stdout.trim();
    };
    run(pgUrl, `create database ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    psql = (sql) => run(databaseUrl, sql);
    dropDatabase = async () => { run(pgUrl, `drop database if exists ${name} with (force)`); };
  }
  let server: ServerProcess;
  try {
    server = await spawnServer({
      args: ['server/dist/index.js'],
      env: { DATABASE_URL: databaseUrl, JWT_SECRET: randomBytes(32).toString('hex'), MAX_CONNECTIONS_PER_IP: '0', PASSWORD_HASH_COST: '10' },
    });
  } catch (err) {
    await dropDatabase();
    throw err;
  }
  return {
    url: server.url,
    pid: server.proc.pid,
    psql,
    stop: async () => {
      await server.stop();
      if (keep) {
        if (store === 'postgres') fs.rmSync(dir, { recursive: true, force: true });
        log(`kept the store: ${databaseUrl}`);
        return;
      }
      fs.rmSync(dir, { recursive: true, force: true });
      await dropDatabase();
    },
  };
}

interface Built {
  admin: string;
  bidder: { username: string; password: string; token: string };
  categorySlug: string;
  importS: number;
  files: number;
  fileS: number[];
  auctionsS: number;
}

async function api<T = Record<string, unknown>>(base: string, method: string, p: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}/api${p}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({})) as T;
  if (res.status >= 400) throw new Error(`${method} ${p} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function signUp(base: string, kind: 'user' | 'admin', username: string, password: string): Promise<string> {
  const prefix = kind === 'admin' ? '/admin' : '';
  await api(base, 'POST', `${prefix}/register`, { name: username, username, password, mobile_number: '9000000000' });
  return (await api<{ token: string }>(base, 'POST', `${prefix}/login`, { username, password })).token;
}

/** N auctions of 10 lots: the lots through the import, then the auctions through the API. */
async function buildCatalogue(base: string, n: number, concurrency: number, log: (m: string) => void): Promise<Built> {
  const admin = await signUp(base, 'admin', 'bench_admin', 'bench123');
  const slugs: string[] = [];
  for (const c of CATEGORIES) {
    const parent = await api<{ category: { id: number; slug: string } }>(base, 'POST', '/admin/categories', { name: c.name }, admin);
    slugs.push(parent.category.slug);
    for (const child of c.children) {
      slugs.push((await api<{ category: { slug: string } }>(base, 'POST', '/admin/categories', { name: child, parent_id: parent.category.id }, admin)).category.slug);
    }
  }
  const rnd = seeded(20261127);
  const total = n * LOTS_PER_AUCTION;
  const fileS: number[] = [];
  log(`building ${n} auctions × ${LOTS_PER_AUCTION} lots: importing ${total} lots in ${Math.ceil(total / FILE_ROWS)} file(s)`);
  const header = csvRow(['id', 'name', 'description', 'category', 'starting_price']);
  for (let start = 0; start < total; start += FILE_ROWS) {
    const lines = [header];
    for (let i = start; i < Math.min(total, start + FILE_ROWS); i++) {
      const lot = makeLot(i, rnd);
      // Every fifth lot has no category.
      const category = i % 5 === 4 ? '' : slugs[i % slugs.length]!;
      lines.push(csvRow([`L${i}`, lot.name, lot.description, category, String(lot.startingPrice)]));
    }
    const csv = `${lines.join('\r\n')}\r\n`;
    const t0 = performance.now();
    const res = await fetch(`${base}/api/admin/products/import`, { method: 'POST', headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin}` }, body: csv });
    const took = (performance.now() - t0) / 1000;
    if (res.status !== 201) throw new Error(`import → ${res.status} ${(await res.text()).slice(0, 500)}`);
    fileS.push(round(took));
  }
  const importS = round(fileS.reduce((a, b) => a + b, 0));
  log(`imported ${total} lots in ${importS} s (${fileS.join(', ')} s per file)`);

  const t0 = performance.now();
  let next = 0;
  const day = 24 * 3600e3;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      // Closing times spread over a month, a few within the next day.
      const validUntil = new Date(Date.now() + (i % 10 === 0 ? 3 * 3600e3 + i * 1000 : 2 * day + ((i * 7919) % (28 * 24)) * 3600e3)).toISOString();
      const productIds = Array.from({ length: LOTS_PER_AUCTION }, (_, k) => `L${i * LOTS_PER_AUCTION + k}`);
      await api(base, 'POST', '/admin/auction', { id: `A${i}`, name: auctionName(i, rnd), valid_until: validUntil, product_ids: productIds }, admin);
      if (i > 0 && i % 2000 === 0) log(`  ${i} auctions created (${round((performance.now() - t0) / 1000)} s)`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  const auctionsS = round((performance.now() - t0) / 1000);
  log(`created ${n} auctions in ${auctionsS} s`);

  const bidder = { username: 'bench_bidder', password: 'bench123', token: '' };
  bidder.token = await signUp(base, 'user', bidder.username, bidder.password);
  return { admin, bidder, categorySlug: slugs[0]!, importS, files: fileS.length, fileS, auctionsS };
}

/** What the measures need of a catalogue a --keep run built: the bidder signed in, the first category. */
async function reusedCatalogue(base: string): Promise<Built> {
  const bidder = { username: 'bench_bidder', password: 'bench123', token: '' };
  bidder.token = (await api<{ token: string }>(base, 'POST', '/login', { username: bidder.username, password: bidder.password })).token;
  const { categories } = await api<{ categories: { name: string; slug: string }[] }>(base, 'GET', '/categories');
  const first = categories.find((c) => c.name === CATEGORIES[0]!.name);
  if (!first) throw new Error(`--reuse: the store has no category ${CATEGORIES[0]!.name}`);
  return { admin: '', bidder, categorySlug: first.slug, importS: 0, files: 0, fileS: [], auctionsS: 0 };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET on a kept-alive connection: status, the bytes on the wire, the time to the last byte. */
function get(base: string, p: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; encoding: string | null; ms: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(`${base}${p}`, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, bytes: body.length, encoding: res.headers['content-encoding'] ?? null, ms: performance.now() - t0, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Latency percentiles over `requests` requests one after another, or as many as fit in `budgetS` seconds when they are slow (at least 20). */
async function latency(base: string, p: string, token: string, requests: number, budgetS: number): Promise<{ p50: number; p95: number; n: number }> {
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' };
  for (let i = 0; i < 5; i++) await get(base, p, headers);
  const ms: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) {
    const r = await get(base, p, headers);
    if (r.status !== 200) throw new Error(`GET ${p} → ${r.status}`);
    ms.push(r.ms);
    if (ms.length >= 20 && performance.now() - t0 > budgetS * 1000) break;
  }
  return { p50: pct(ms, 50), p95: pct(ms, 95), n: ms.length };
}

/** The server's CPU time so far (user + system, ms), from /proc; null where there is none. */
function cpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, the 14th and 15th fields of the line (12th and 13th after the command).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function serverFigures(base: string, pid: number | undefined, built: Built, requests: number, budgetS: number, log: (m: string) => void) {
  const token = built.bidder.token;
  const first = '/api/catalogue/auctions?tab=active';
  const compressed = await get(base, first, { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' });
  const plain = await get(base, first, { authorization: `Bearer ${token}` });
  const decoded = compressed.encoding === 'br' ? zlib.brotliDecompressSync(compressed.body) : compressed.encoding === 'gzip' ? zlib.gunzipSync(compressed.body) : compressed.body;
  const cards = (JSON.parse(decoded.toString('utf8')) as { items: unknown[] }).items.length;
  log(`first page: ${cards} cards, ${compressed.bytes} bytes ${compressed.encoding ?? 'uncompressed'}, ${plain.bytes} bytes plain`);
  const samples: number[] = [];
  const cpu: number[] = [];
  const at = async (name: string, p: string) => {
    const before = cpuMs(pid);
    const r = await latency(base, p, token, requests, budgetS);
    const after = cpuMs(pid);
    // Server CPU per request, the 5 warm-up requests included (the clock ticks in 10 ms steps).
    const perRequest = before === null || after === null ? null : round((after - before) / (r.n + 5));
    log(`${name}: p50 ${r.p50} ms, p95 ${r.p95} ms (${r.n} requests${r.n < requests ? `: the ${budgetS} s budget ran out` : ''}), server CPU ${perRequest ?? '?'} ms a request`);
    samples.push(r.n);
    if (perRequest !== null) cpu.push(perRequest);
    return r;
  };
  const auctions = await at('auctions, first page', first);
  const category = await at('auctions, a category', `${first}&category=${built.categorySlug}`);
  const q = await at('auctions, q', `${first}&q=${COMMON_WORD}`);
  const common = await at(`lots, q=${COMMON_WORD}`, `/api/catalogue/lots?q=${COMMON_WORD}`);
  const rare = await at(`lots, q=${RARE_WORD}`, `/api/catalogue/lots?q=${RARE_WORD}`);
  return {
    auctions_page_cards: cards,
    auctions_page_bytes: plain.bytes, auctions_page_compressed_bytes: compressed.bytes, auctions_page_encoding: compressed.encoding,
    auctions_p50_ms: auctions.p50, auctions_p95_ms: auctions.p95,
    auctions_category_p50_ms: category.p50, auctions_category_p95_ms: category.p95,
    auctions_q_p50_ms: q.p50, auctions_q_p95_ms: q.p95,
    lots_common_p50_ms: common.p50, lots_common_p95_ms: common.p95,
    lots_rare_p50_ms: rare.p50, lots_rare_p95_ms: rare.p95,
    // Requests per figure (fewer than asked where the time budget ran out).
    latency_requests: samples,
    // Server CPU ms per request for each figure, in the same order.
    server_cpu_ms: cpu,
  };
}
