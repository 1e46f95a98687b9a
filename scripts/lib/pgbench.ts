/**
 * PostgreSQL's own speed on this machine, for the bench to compare with: pgbench's TPC-B-like script
 * on a scratch database (created, initialised, measured, dropped), with the PostgreSQL CPU it took.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { followClientBackends, postgresCpuUs } from './proc-cpu.js';

const run = promisify(execFile);

export interface PgbenchResult {
  /** Transactions per second without the initial connection time; null when it could not run. */
  tps: number | null;
  transactions: number | null;
  /** PostgreSQL's CPU microseconds per transaction over the measured run (every PostgreSQL process on this machine). */
  pgCpuUsPerTx: number | null;
  /** The same, of pgbench's own backends only (unaffected by other work on that PostgreSQL). */
  backendCpuUsPerTx: number | null;
  /** Why the figures are null, or the database that was measured. */
  note: string;
}

/**
 * `pgbench -i -s <scale> -q` on a new database `bench_pgbench_<random>` of the server at `url` (its
 * host, port, user and password; the database in the URL is not touched), then
 * `pgbench -c <clients> -j <threads> -T <seconds> -b tpcb-like -n`, then drops the database.
 * Never throws: a missing binary or a refused connection gives null figures and a note.
 */
export async function runPgbench(opts: { url: string; clients: number; seconds: number; scale: number; threads?: number; log?: (msg: string) => void }): Promise<PgbenchResult> {
  const u = new URL(opts.url);
  const conn = ['-h', u.hostname || '127.0.0.1', '-p', u.port || '5432', '-U', decodeURIComponent(u.username) || 'postgres'];
  const env = { ...process.env, ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}) };
  const db = `bench_pgbench_${randomBytes(4).toString('hex')}`;
  const fail = (step: string, err: unknown): PgbenchResult => {
    const e = err as { code?: string; stderr?: string; message?: string };
    const why = e.code === 'ENOENT' ? 'binary not found' : (e.stderr || e.message || String(err)).trim().split('\n').at(-1)?.trim();
    return { tps: null, transactions: null, pgCpuUsPerTx: null, backendCpuUsPerTx: null, note: `${step} failed: ${why}` };
  };
  try {
    await run('createdb', [...conn, db], { env });
  } catch (err) {
    return fail('createdb', err);
  }
  try {
    opts.log?.(`pgbench: initialising ${db} (scale ${opts.scale})`);
    try {
      await run('pgbench', [...conn, '-i', '-s', String(opts.scale), '-q', db], { env, maxBuffer: 16 << 20 });
    } catch (err) {
      return fail('pgbench -i', err);
    }
    opts.log?.(`pgbench: tpcb-like, ${opts.clients} clients, ${opts.threads ?? 2} threads, ${opts.seconds}s`);
    const before = postgresCpuUs();
    let stdout: string;
    let backends: { us: number } | null = null;
    try {
      const running = run('pgbench', [...conn, '-c', String(opts.clients), '-j', String(opts.threads ?? 2), '-T', String(opts.seconds), '-b', 'tpcb-like', '-n', db],
        { env, maxBuffer: 16 << 20, timeout: (opts.seconds + 120) * 1000 });
      // Its backends end with it: read them often, so little of their last moments is missed.
      const follow = followClientBackends(running.child.pid, { postgresPort: Number(u.port || 5432), everyMs: 100 });
      try {
        ({ stdout } = await running);
      } finally {
        backends = follow.stop();
      }
    } catch (err) {
      return fail('pgbench', err);
    }
    const after = postgresCpuUs();
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
    const txs = /number of transactions actually processed: (\d+)/.exec(stdout);
    if (!tps) return { tps: null, transactions: null, pgCpuUsPerTx: null, backendCpuUsPerTx: null, note: `pgbench printed no tps: ${stdout.trim().split('\n').at(-1)}` };
    const transactions = txs ? Number(txs[1]) : null;
    return {
      tps: Math.round(Number(tps[1]) * 10) / 10,
      transactions,
      pgCpuUsPerTx: before && after && transactions ? Math.round((after.us - before.us) / transactions) : null,
      backendCpuUsPerTx: backends && transactions ? Math.round(backends.us / transactions) : null,
      note: `scale ${opts.scale}, ${opts.clients} clients, ${opts.seconds}s on ${u.hostname}:${u.port || '5432'}`,
    };
  } finally {
    await run('dropdb', [...conn, '--if-exists', db], { env }).catch((err: unknown) => {
      opts.log?.(`pgbench: could not drop ${db}: ${String(err)}`);
    });
  }
}
