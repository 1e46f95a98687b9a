/**
 * The goals check `npm run bench` prints (stderr) after its table (scripts/bench.ts).
 */

/** The independent probe's goals (docs/performance.md#hardening-watchers-get-state-steady-tails-fast-reads-2026-11-24), against this run's figures. */
export function printGoals(r: {
  order: string; watchers: number; open_rate: number; storm_bid_rps: number; storm_ratio: number | null; storm_nowatch_rps: number | null;
  ceiling_rps: number; health_rps: number; read_ratio: number; bid_p99_runs_ms: (number | null)[]; broadcast_p99_runs_ms: (number | null)[];
  rss_mb: { end: number | null } | null; products: number; storm_vs_pgbench: number | null; pgbench_tps: number | null;
  store: string | null; server_cpu_us_per_bid: number | null; pg_cpu_us_per_bid: number | null;
}) {
  const met = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'yes' : 'NO');
  const all = (xs: (number | null)[], max: number) => (xs.length === 0 || xs.some((x) => x === null) ? null : xs.every((x) => x! < max));
  const notes = (xs: string[]) => (xs.length ? ` (${xs.join('; ')})` : '');
  const rows = [
    {
      goal: 'bid storm with 1,000 watchers ≥ 0.8 × without, ≥ 4,000 req/s',
      measured: `${r.storm_bid_rps} req/s, ratio ${r.storm_ratio ?? 'n/a'} (without: ${r.storm_nowatch_rps ?? 'not run'})${notes(r.watchers === 1000 ? [] : [`${r.watchers} watchers`])}`,
      met: met(r.watchers === 0 || r.storm_ratio === null ? null : r.storm_ratio >= 0.8 && r.storm_bid_rps >= 4000),
    },
    {
      goal: 'POST /api/wallet (100 users) ≥ 8,000 req/s, ≥ 0.75 × /api/health',
      measured: `${r.ceiling_rps} req/s, health ${r.health_rps} req/s, ratio ${r.read_ratio}${notes(r.watchers === 0 ? [] : [`with ${r.watchers} watchers connected`])}`,
      met: met(r.ceiling_rps >= 8000 && r.read_ratio >= 0.75),
    },
    {
      goal: 'bid p99 at 100 bids/s right after the storm < 15 ms',
      measured: `${r.bid_p99_runs_ms.join(', ')} ms${notes([...(r.open_rate === 100 ? [] : [`${r.open_rate} bids/s`]), ...(r.order === 'storm-first' ? [] : ['order default: the reads come before the storm'])])}`,
      met: met(all(r.bid_p99_runs_ms, 15)),
    },
    {
      goal: 'broadcast p99 (LAST watcher) < 100 ms',
      measured: r.watchers > 0 ? `${r.broadcast_p99_runs_ms.join(', ')} ms` : 'no watchers',
      met: met(r.watchers > 0 ? all(r.broadcast_p99_runs_ms, 100) : null),
    },
    {
      goal: 'bid storm (no watchers) ≥ 0.7 × pgbench TPC-B tps on 10 lots, ≥ 0.5 × on one lot',
      measured: r.storm_vs_pgbench === null ? 'pgbench not run' : `ratio ${r.storm_vs_pgbench} (pgbench ${r.pgbench_tps} tps)`
        + notes([...(r.products === 1 || r.products === 10 ? [] : [`${r.products} lots`]), ...(r.watchers === 0 ? [] : ['the storm without watchers'])]),
      met: met(r.storm_vs_pgbench === null || (r.products !== 1 && r.products !== 10) ? null : r.storm_vs_pgbench >= (r.products === 1 ? 0.5 : 0.7)),
    },
    {
      goal: 'server CPU per bid on PostgreSQL ≤ 2 × SQLite\'s (compare two runs of one sitting)',
      measured: `${r.server_cpu_us_per_bid ?? 'unknown'} µs per bid on ${r.store ?? 'the --url server'}${r.pg_cpu_us_per_bid === null ? '' : `, PostgreSQL ${r.pg_cpu_us_per_bid} µs`}`,
      met: met(null),
    },
    {
      goal: 'server RSS after the probe < 300 MB',
      measured: r.rss_mb?.end == null ? 'unknown (--url)' : `${r.rss_mb.end} MB`,
      met: met(r.rss_mb?.end == null ? null : r.rss_mb.end < 300),
    },
  ];
  process.stderr.write('goals:\n');
  for (const row of rows) process.stderr.write(`  [${row.met.padEnd(3)}] ${row.goal}: ${row.measured}\n`);
}
