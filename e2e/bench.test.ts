import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';
import { postgresMissing, TEST_POSTGRES_URL } from '../server/src/db/testing.js';
import { ROOT } from './server.js';

const pgMissing = await postgresMissing();
if (pgMissing && process.env.REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL is required: ${pgMissing}`);
if (pgMissing) console.warn(`PostgreSQL bench test skipped: ${TEST_POSTGRES_URL} is not reachable (${pgMissing})`);

/** The server's CPU per request, read from /proc, in every phase that ran. */
function expectCpuPerRequest(result: Record<string, unknown>, phases: string[]) {
  const cpu = result.server_cpu_us_per_req as Record<string, number | null>;
  for (const phase of phases) {
    expect(cpu[phase], phase).toBeGreaterThan(0);
    // A request that takes the server a whole second of CPU is a units mistake, not a slow server.
    expect(cpu[phase], phase).toBeLessThan(1e6);
  }
  expect(result.server_cpu_us_per_bid).toBe(cpu.storm_nowatch ?? cpu.storm);
}

// A few seconds of the real benchmark: it must run end to end, lose nothing and keep the money right.
// Speed is not asserted here (that is what `npm run bench` reports).
it('npm run bench: a small run prints one JSON line with every figure, nothing lost, invariant true', () => {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const res = spawnSync(tsx, ['scripts/bench.ts', '--watchers', '20', '--seconds', '1', '--bidders', '4', '--products', '2', '--rate', '20', '--idle-watchers', '30', '--quiet'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000,
  });
  expect(res.status, res.stderr).toBe(0);
  const line = res.stdout.trim().split('\n').at(-1)!;
  const result = JSON.parse(line) as Record<string, unknown>;
  for (const key of ['ceiling_rps', 'health_rps', 'read_ratio', 'storm_nowatch_rps', 'storm_bid_rps', 'storm_ratio', 'storm_accepted', 'ratio_storm_ceiling',
    'drain_ms', 'bid_p50_ms', 'bid_p95_ms', 'bid_p99_ms', 'broadcast_p50_ms', 'broadcast_p99_ms', 'server_peak_rss_mb',
    'idle_rss_before_mb', 'idle_rss_mb']) {
    expect(typeof result[key], key).toBe('number');
  }
  expect(result.storm_accepted).toBeGreaterThan(0);
  // Watchers get state: versions merged into newer ones are normal; none lost, none out of order.
  expect(result).toMatchObject({ watchers: 20, idle_watchers: 30, live_frame_ms: 30, events_lost: 0, events_out_of_order: 0, server_5xx: 0, storm_errors: 0, invariant_ok: true });
  const rss = result.rss_mb as Record<string, number>;
  for (const phase of ['boot', 'start', 'storm_nowatch', 'watchers_connected', 'storm', 'ceiling', 'drain', 'open_loop', 'end']) expect(typeof rss[phase], phase).toBe('number');
  expectCpuPerRequest(result, ['storm_nowatch', 'wallet', 'health', 'storm', 'open_loop']);
  // SQLite: no PostgreSQL figures, and pgbench is not run unless asked for.
  expect(result).toMatchObject({ pg_cpu_us_per_req: null, pg_backend_cpu_us_per_req: null, pg_cpu_us_per_bid: null, pgbench_tps: null, storm_vs_pgbench: null });
}, 150_000);

// The storms from simulated web clients: bids race at what each lot shows, refusals teach the
// clients the minimum, and the open loop after them still bids above it (its bids are accepted and
// reach the watchers).
it('npm run bench --clients: the storms come from web clients, and the open loop after them is accepted', () => {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const res = spawnSync(tsx, ['scripts/bench.ts', '--clients', '--watchers', '5', '--seconds', '1', '--concurrency', '8', '--bidders', '4', '--readers', '4', '--products', '2', '--rate', '20', '--quiet'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000,
  });
  expect(res.status, res.stderr).toBe(0);
  const result = JSON.parse(res.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  expect(result).toMatchObject({ storm_load: 'clients', watchers: 5, events_lost: 0, events_out_of_order: 0, storm_errors: 0, server_5xx: 0, invariant_ok: true });
  expect(result.storm_accepted).toBeGreaterThan(0);
  expect(result.storm_nowatch_rps).toBeGreaterThan(0);
  // Every bid of the open loop that was accepted reached the watchers; a loop refused as too low would have none.
  expect(result.broadcast_p99_ms).toEqual(expect.any(Number));
  expectCpuPerRequest(result, ['storm_nowatch', 'wallet', 'health', 'storm', 'open_loop']);
}, 150_000);

// A tiny run on PostgreSQL: the PostgreSQL processes' CPU per request, and pgbench in the same sitting.
it.skipIf(pgMissing !== null)('npm run bench on PostgreSQL: its CPU per request and pgbench\'s tps beside the storm', () => {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  // Unmerged delivery (--live-frame-ms 0, every event at once) to a few watchers, for the same sitting's comparison.
  const res = spawnSync(tsx, ['scripts/bench.ts', '--watchers', '5', '--no-baseline-storm', '--live-frame-ms', '0', '--seconds', '1', '--bidders', '4', '--readers', '4', '--products', '2', '--rate', '20',
    '--pgbench-scale', '1', '--quiet'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, DATABASE_URL: TEST_POSTGRES_URL },
  });
  expect(res.status, res.stderr).toBe(0);
  const result = JSON.parse(res.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  expect(result).toMatchObject({ store: 'postgres', live_frame_ms: 0, watchers: 5, events_lost: 0, events_out_of_order: 0, storm_errors: 0, server_5xx: 0, invariant_ok: true, storm_nowatch_rps: null });
  expect(result.broadcast_p99_ms).toEqual(expect.any(Number));
  expectCpuPerRequest(result, ['wallet', 'health', 'storm', 'open_loop']);
  // Every bid runs statements on PostgreSQL: its processes' CPU per bid is positive, and so is that
  // of the server's own backends.
  const pg = result.pg_cpu_us_per_req as Record<string, number | null>;
  const backends = result.pg_backend_cpu_us_per_req as Record<string, number | null>;
  expect(pg.storm).toBeGreaterThan(0);
  expect(backends.storm).toBeGreaterThan(0);
  expect(result.pg_cpu_us_per_bid).toBe(pg.storm);
  expect(result.pg_backend_cpu_us_per_bid).toBe(backends.storm);
  if (spawnSync('pgbench', ['--version']).status === 0) {
    expect(result.pgbench_tps, String(result.pgbench_note)).toBeGreaterThan(0);
    expect(result.pgbench_pg_cpu_us_per_tx).toBeGreaterThan(0);
    expect(result.pgbench_backend_cpu_us_per_tx).toBeGreaterThan(0);
    expect(result.storm_vs_pgbench).toBeCloseTo((result.storm_bid_rps as number) / (result.pgbench_tps as number), 1);
  } else {
    // No pgbench on this machine: the bench still succeeds and says why the fields are empty.
    expect(result).toMatchObject({ pgbench_tps: null, storm_vs_pgbench: null });
    expect(result.pgbench_note).toMatch(/failed/);
  }
}, 150_000);

// The catalogue's benchmark on a tiny catalogue, without the browser: it builds through the import and
// the API and prints every server figure.
it('npm run bench -- --catalogue: a tiny run prints one JSON line with the import and every server figure', () => {
  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const res = spawnSync(tsx, ['scripts/bench.ts', '--catalogue', '3', '--no-browser', '--requests', '20', '--quiet'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000,
  });
  expect(res.status, res.stderr).toBe(0);
  const result = JSON.parse(res.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  expect(result).toMatchObject({ store: 'sqlite', auctions: 3, lots: 30, import_files: 1, auctions_page_cards: 3, browse_first_card_ms: null });
  for (const key of ['import_s', 'import_lots_per_s', 'auctions_create_s', 'auctions_page_bytes', 'auctions_page_compressed_bytes', 'auctions_p50_ms', 'auctions_p95_ms',
    'auctions_category_p95_ms', 'auctions_q_p95_ms', 'lots_common_p95_ms', 'lots_rare_p95_ms']) {
    expect(typeof result[key], key).toBe('number');
  }
  expect(result.latency_requests).toEqual([20, 20, 20, 20, 20]);
}, 150_000);
