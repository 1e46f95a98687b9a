/**
 * `npm run cluster -- --workers N`: N server processes on one port (node:cluster), sharing PostgreSQL
 * (DATABASE_URL) and Redis (REDIS_URL) (docs/deploy.md). The primary accepts connections and hands them
 * to the workers in turn; no sticky sessions are needed because the socket.io client uses the
 * websocket transport only, and any process can serve any request. A worker that dies is replaced;
 * SIGTERM drains and stops every worker, then the primary; SIGHUP replaces the workers one at a time
 * (each new one listening before its predecessor drains), which loads a new build without downtime.
 */
import cluster from 'node:cluster';
import os from 'node:os';
import { ConfigError, loadConfig, type Config } from './config.js';
import { isPostgresUrl } from './db/index.js';
import { relayWorkerMetricsPorts } from './cluster-metrics.js';

const MAX_WORKERS = 64;
/** A stopping worker's drain when DRAIN_MS is not set (see `fork`). */
const CLUSTER_DRAIN_MS = 1000;
/** A worker that dies sooner than this after starting (twice running) points to a fault, not bad luck. */
const CRASH_LOOP_MS = 10_000;

export class ClusterSetupError extends Error {}

/** The worker count from `--workers N` (or `--workers=N`); all cores when absent. */
export function parseWorkers(argv: readonly string[], cores = os.availableParallelism()): number {
  const i = argv.findIndex((a) => a === '--workers' || a.startsWith('--workers='));
  if (i === -1) return cores;
  const raw = argv[i]!.includes('=') ? argv[i]!.slice('--workers='.length) : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) throw new ClusterSetupError(`--workers must be an integer from 1 to ${MAX_WORKERS} (got "${raw ?? ''}")`);
  return n;
}

/** Several processes need a store and an event bus they can share: PostgreSQL and Redis. */
export function checkClusterConfig(config: Config): void {
  if (!isPostgresUrl(config.databaseUrl)) {
    throw new ClusterSetupError(
      'npm run cluster needs PostgreSQL: several processes cannot share a SQLite file. '
      + 'Set DATABASE_URL=postgres://user@host:5432/db (or run one process with npm start).',
    );
  }
  if (!config.redisUrl) {
    throw new ClusterSetupError(
      'npm run cluster needs Redis for live events, watcher counts and rate limits across processes. '
      + 'Set REDIS_URL=redis://127.0.0.1:6379 (or run one process with npm start).',
    );
  }
}

function primary() {
  let workers: number;
  let config: Config;
  try {
    config = loadConfig();
    checkClusterConfig(config);
    workers = parseWorkers(process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError || err instanceof ClusterSetupError) {
      console.error(`Cannot start the cluster: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }

  let stopping = false;
  /** Set once any worker has listened: from then on, a worker that fails is replaced, never fatal. */
  let started = false;
  const startedAt = new Map<number, number>();
  /** Workers stopped on purpose by a reload, or started by one: the reload deals with their exit. */
  const replaced = new Set<number>();
  const reloadForks = new Set<number>();
  /**
   * Each worker's slot, 0 to N-1, reused by the worker that replaces it: its metrics carry it as the
   * `worker` label, so a replaced worker's counters start again as one series that reset (which
   * Prometheus reads right), not as a sum over workers that fell when one left.
   */
  const slots = new Map<number, number>();
  const freeSlot = () => {
    const taken = new Set(slots.values());
    let slot = 0;
    while (taken.has(slot)) slot++;
    return slot;
  };
  const fork = (slot = freeSlot()) => {
    // A worker told to stop keeps serving for DRAIN_MS, each answer closing its connection, so kept-alive
    // clients move to the other workers before it closes the idle ones: without it a request sent just
    // as the connection closed failed (a reload must lose nothing). 1 s unless DRAIN_MS says otherwise.
    // glibc gives each thread that allocates an arena of its own and keeps what they freed: a worker's
    // resident memory after a bid storm was 266–323 MB with the default and 219 MB with two arenas
    // (docs/performance.md#memory-arenas). Both are only defaults: the environment's own values win.
    const env: Record<string, string> = {};
    if (process.env.DRAIN_MS === undefined) env.DRAIN_MS = String(CLUSTER_DRAIN_MS);
    if (process.env.MALLOC_ARENA_MAX === undefined) env.MALLOC_ARENA_MAX = '2';
    env.WORKER_SLOT = String(slot);
    const worker = cluster.fork(env);
    slots.set(worker.id, slot);
    startedAt.set(worker.id, Date.now());
    return worker;
  };
  cluster.on('listening', (worker) => {
    started = true;
    console.log(`worker ${worker.process.pid} listening on ${config.host}:${config.port}`);
  });
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    const slot = slots.get(worker.id) ?? freeSlot();
    slots.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    if (replaced.delete(worker.id) || reloadForks.delete(worker.id)) return;
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}) after ${Math.round(lived / 1000)} s`);
    if (!started && lived < CRASH_LOOP_MS && code !== 0 && !signal) {
      // The first workers could not start (the store or Redis unreachable, the port taken): say so and stop.
      console.error('A worker failed while starting; stopping the cluster (its output above says why).');
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      process.exitCode = 1;
      return;
    }
    // Replaced at once, or after a second if it did not last (a database blip: no hot loop).
    setTimeout(() => { if (!stopping) fork(slot); }, lived < CRASH_LOOP_MS ? 1000 : 0);
  });
  /** SIGHUP: a new worker per old one, the old one stopped (drained) once the new one listens. */
  let reloading = false;
  const reload = async () => {
    if (reloading || stopping) return;
    reloading = true;
    const old = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    console.log(`SIGHUP: replacing ${old.length} workers one at a time`);
    let failed = false;
    for (const w of old) {
      if (stopping) break;
      // One that died meanwhile has been replaced already.
      if (w.isDead()) continue;
      // The old worker's slot: for a moment both carry it, then only the new one.
      const fresh = fork(slots.get(w.id));
      reloadForks.add(fresh.id);
      const listening = await new Promise<boolean>((resolve) => { fresh.once('listening', () => resolve(true)); fresh.once('exit', () => resolve(false)); });
      if (!listening) {
        // The new build does not start: keep the workers that run, and say so.
        console.error('SIGHUP: a new worker failed to start; the running workers stay (its output above says why)');
        failed = true;
        break;
      }
      reloadForks.delete(fresh.id);
      if (w.isDead()) continue;
      replaced.add(w.id);
      const gone = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.process.kill('SIGTERM');
      await gone;
    }
    reloading = false;
    if (!failed) console.log('SIGHUP: every worker replaced');
  };
  process.on('SIGHUP', () => { void reload(); });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: draining and stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  relayWorkerMetricsPorts();
  console.log(`starting ${workers} workers on ${config.host}:${config.port} (PostgreSQL + Redis)`);
  for (let i = 0; i < workers; i++) fork();
}

if (cluster.isPrimary) primary();
else await import('./index.js');
