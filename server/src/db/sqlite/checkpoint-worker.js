// @ts-check
/**
 * The WAL checkpoint thread's program (checkpointer.ts starts it), with its own connection to the
 * database file. Plain JavaScript, checked by tsc (checkJs) and copied to dist/ beside the server, so
 * the same file runs from the sources (tests) and from the build (`npm start`).
 *
 * PASSIVE each tick. Under a sustained stream of writes a PASSIVE checkpoint is never quite caught up
 * when the writer starts its next transaction, so the WAL never starts over and grows without bound
 * (680 MB in 4 s of writing, measured); past `limitPages`, when the PASSIVE one left frames behind, the
 * thread therefore runs a RESTART (it waits up to 100 ms for the writer's current transaction, copies
 * the few frames left and makes the writer start the WAL over), or a TRUNCATE when the file has grown
 * past `truncateBytes`: the file is cut back here, not by the writer on the event loop (a 680 MB WAL
 * cut by the writer cost its first commit 180 ms).
 */
import fs from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * @typedef {{ file: string; intervalMs: number; limitPages: number; truncateBytes: number }} CheckpointWorkerData
 * @typedef {'PASSIVE' | 'RESTART' | 'TRUNCATE'} CheckpointMode
 * @typedef {{ mode: CheckpointMode; busy: number; log: number; checkpointed: number }} CheckpointResult
 * @typedef {{ type: 'ready' } | ({ type: 'checkpoint' } & CheckpointResult) | { type: 'error'; message: string }} CheckpointMessage
 */

if (!parentPort) throw new Error('checkpoint-worker.js runs as a worker thread');
const port = parentPort;
const { file, intervalMs, limitPages, truncateBytes } = /** @type {CheckpointWorkerData} */ (workerData);

/** @param {CheckpointMessage} m */
const post = (m) => port.postMessage(m);

const db = new Database(file);
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
db.pragma('busy_timeout = 0');
let lastLog = 0;
const walSize = () => {
  try {
    return fs.statSync(file + '-wal').size;
  } catch {
    return 0;
  }
};
/**
 * @param {CheckpointMode} mode
 * @returns {CheckpointResult}
 */
const checkpoint = (mode) => {
  // A RESTART holds new writers back while it waits: never for long (it tries again next tick).
  db.pragma('busy_timeout = ' + (mode === 'PASSIVE' ? 0 : 100));
  const [r] = /** @type {{ busy: number; log: number; checkpointed: number }[]} */ (db.pragma('wal_checkpoint(' + mode + ')'));
  if (!r) throw new Error('wal_checkpoint returned no row');
  return { mode, busy: r.busy, log: r.log, checkpointed: r.checkpointed };
};
const timer = setInterval(() => {
  try {
    let r = checkpoint('PASSIVE');
    // Only while writes keep the WAL growing: once no commit comes (reads only), the writer starts the
    // WAL over by itself at its next commit, and a RESTART would only hold that commit back.
    const growing = r.log > lastLog;
    lastLog = r.log;
    if (r.log > limitPages && (growing || r.checkpointed < r.log)) {
      r = checkpoint(walSize() > truncateBytes ? 'TRUNCATE' : 'RESTART');
      lastLog = 0;
    }
    post({ type: 'checkpoint', ...r });
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}, intervalMs);
port.on('message', (/** @type {unknown} */ m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  port.close();
});
post({ type: 'ready' });
