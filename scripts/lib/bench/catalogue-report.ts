/**
 * The figures' rounding and the goals check (stderr) of `npm run bench -- --catalogue N`
 * (scripts/bench-catalogue.ts).
 */
export const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

export function printGoals(r: Record<string, unknown>) {
  const n = (k: string) => (typeof r[k] === 'number' ? r[k] : null);
  const met = (v: number | null, ok: (x: number) => boolean) => (v === null ? 'n/a' : ok(v) ? 'yes' : 'NO');
  const rows: [string, string, string][] = [
    ['Browse first card < 1 s', `${n('browse_first_card_ms') ?? '–'} ms`, met(n('browse_first_card_ms'), (x) => x < 1000)],
    ['Browse first card ≤ 1.5 × the 20-auction catalogue', `ratio ${n('first_card_ratio') ?? '–'}`, met(n('first_card_ratio'), (x) => x <= 1.5)],
    ['Browse JS heap < 50 MB', `${n('browse_js_heap_mb') ?? '–'} MB`, met(n('browse_js_heap_mb'), (x) => x < 50)],
    ['auctions first page p95 < 50 ms', `${n('auctions_p95_ms')} ms`, met(n('auctions_p95_ms'), (x) => x < 50)],
    ['auctions first page < 60 KiB compressed', `${round((n('auctions_page_compressed_bytes') ?? 0) / 1024, 1)} KiB`, met(n('auctions_page_compressed_bytes'), (x) => x < 60 * 1024)],
    ['lot search p95 < 50 ms', `${n('lots_common_p95_ms')} / ${n('lots_rare_p95_ms')} ms`, met(Math.max(n('lots_common_p95_ms') ?? 0, n('lots_rare_p95_ms') ?? 0), (x) => x < 50)],
    ['import of 20,000 lots < 10 s', `slowest two files in a row ${n('import_worst_20000_s')} s (${n('lots')} lots in ${n('import_s')} s)`, met(n('lots') === null || (n('lots') ?? 0) < 20_000 ? null : n('import_worst_20000_s'), (x) => x < 10)],
  ];
  process.stderr.write('goals:\n');
  for (const [goal, measured, ok] of rows) process.stderr.write(`  [${ok.padEnd(3)}] ${goal}: ${measured}\n`);
}
