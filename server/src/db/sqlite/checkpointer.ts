/**
 * WAL checkpoints off the bid path. By default SQLite checkpoints inside the commit that takes the
 * WAL past 1,000 pages: that commit copies every page into the database file and fsyncs it before it
 * returns, on the event loop, so one batch of bids in a few hundred waits for it (the tail of bid
 * latency after a storm). Here a worker thread with its own connection to the file runs a PASSIVE
 * checkpoint every `intervalMs`: it never blocks the writer (which keeps appending to the WAL while
 * it copies), and once it has caught up the writer starts the WAL from the beginning again. Under
 * sustained writing it bounds the WAL itself (see SOURCE). The main connection's own automatic
 * checkpoint is switched off only once the thread runs, and back on should the thread ever stop.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's whole program (evaluated, so it runs the same from the sources and from dist/).
 * PASSIVE each tick. Under a sustained stream of writes a PASSIVE checkpoint is never quite caught up
 * when the writer starts its next transaction, so the WAL never starts over and grows without bound
 * (680 MB in 4 s of writing, measured); past `limitPages`, when the PASSIVE one left frames behind, the
 * thread therefore runs a RESTART (it waits up to 100 ms for the writer's current transaction, copies
 * the few frames left and makes the writer start the WAL over), or a TRUNCATE when the file has grown
 * past `truncateBytes`: the file is
 * cut back here, not by the writer on the event loop (a 680 MB WAL cut by the writer cost its first
 * commit 180 ms).
 */
const SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = FULL');
db.pragma('wal_autocheckpoint = 0');
db.pragma('busy_timeout = 0');
let lastLog = 0;
const walSize = () => { try { return fs.statSync(workerData.file + '-wal').size; } catch { return 0; } };
const checkpoint = (mode) => {
  // A RESTART holds new writers back while it waits: never for long (it tries again next tick).
  db.pragma('busy_timeout = ' + (mode === 'PASSIVE' ? 0 : 100));
  const [r] = db.pragma('wal_checkpoint(' + mode + ')');
  return { mode, busy: r.busy, log: r.log, checkpointed: r.checkpointed };
};
const timer = setInterval(() => {
  try {
    let r = checkpoint('PASSIVE');
    // Only while writes keep the WAL growing: once no commit comes (reads only), the writer starts the
    // WAL over by itself at its next commit, and a RESTART would only hold that commit back.
    const growing = r.log > lastLog;
    lastLog = r.log;
    if (r.log > workerData.limitPages && (growing || r.checkpointed < r.log)) {
      r = checkpoint(walSize() > workerData.truncateBytes ? 'TRUNCATE' : 'RESTART');
      lastLog = 0;
    }
    parentPort.postMessage({ type: 'checkpoint', ...r });
  } catch (err) {
    parentPort.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ type: 'ready' });
`;

/** WAL pages (4 KiB) past which the thread makes the writer start the WAL over: ~16 MB. */
export const WAL_LIMIT_PAGES = 4096;
/** A WAL file larger than this is cut back to nothing by the thread. */
export const WAL_TRUNCATE_BYTES = 64 * 1024 * 1024;

type Message =
  | { type: 'ready' }
  | { type: 'checkpoint'; mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE'; busy: number; log: number; checkpointed: number }
  | { type: 'error'; message: string };

export interface CheckpointerEvents {
  /** The thread runs: the main connection may stop checkpointing itself. */
  onReady: () => void;
  /** The thread stopped unexpectedly: the main connection must checkpoint itself again. */
  onLost: (why: string) => void;
}

export class Checkpointer {
  private readonly worker: Worker;
  private stopping = false;
  /** Checkpoints run, and the WAL's size in pages at the last one (tests, diagnostics). */
  readonly stats = { checkpoints: 0, restarts: 0, truncates: 0, walPages: 0, errors: 0 };

  constructor(file: string, events: CheckpointerEvents, intervalMs = 250) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(SOURCE, { eval: true, workerData: { driver, file, intervalMs, limitPages: WAL_LIMIT_PAGES, truncateBytes: WAL_TRUNCATE_BYTES } });
    this.worker.on('message', (m: Message) => {
      if (m.type === 'ready') events.onReady();
      else if (m.type === 'checkpoint') {
        this.stats.checkpoints++;
        if (m.mode === 'RESTART') this.stats.restarts++;
        if (m.mode === 'TRUNCATE') this.stats.truncates++;
        this.stats.walPages = m.log;
      } else this.stats.errors++;
    });
    const lost = (why: string) => { if (!this.stopping) events.onLost(why); };
    this.worker.on('error', (err) => lost(err.message));
    this.worker.on('exit', (code) => lost(`exited with ${code}`));
    this.worker.unref();
  }

  /** Stops the thread after its current checkpoint and closes its connection. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('stop');
    const timeout = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 2000).unref());
    if (await Promise.race([exited, timeout]) === 'late') await this.worker.terminate();
  }

  /** Ends the thread at once (tests: the thread dying). */
  kill(): Promise<number> {
    return this.worker.terminate();
  }
}
