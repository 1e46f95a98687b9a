/**
 * WAL checkpoints off the bid path. By default SQLite checkpoints inside the commit that takes the
 * WAL past 1,000 pages: that commit copies every page into the database file and fsyncs it before it
 * returns, on the event loop, so one batch of bids in a few hundred waits for it (the tail of bid
 * latency after a storm). Here a worker thread with its own connection to the file runs a PASSIVE
 * checkpoint every `intervalMs`: it never blocks the writer (which keeps appending to the WAL while
 * it copies), and once it has caught up the writer starts the WAL from the beginning again. Under
 * sustained writing it bounds the WAL itself (see checkpoint-worker.js). The main connection's own automatic
 * checkpoint is switched off only once the thread runs, and back on should the thread ever stop.
 */
import { Worker } from 'node:worker_threads';
import type { CheckpointMessage, CheckpointWorkerData } from './checkpoint-worker.js';

/**
 * The thread's program (checkpoint-worker.js, which says what it does): plain JavaScript (a worker
 * thread has no TypeScript loader under the tests), type-checked by tsc and copied to dist/, so this
 * URL names it beside this module in both.
 */
const WORKER = new URL('./checkpoint-worker.js', import.meta.url);

/** WAL pages (4 KiB) past which the thread makes the writer start the WAL over: ~16 MB. */
export const WAL_LIMIT_PAGES = 4096;
/** A WAL file larger than this is cut back to nothing by the thread. */
export const WAL_TRUNCATE_BYTES = 64 * 1024 * 1024;


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
    const workerData: CheckpointWorkerData = { file, intervalMs, limitPages: WAL_LIMIT_PAGES, truncateBytes: WAL_TRUNCATE_BYTES };
    this.worker = new Worker(WORKER, { workerData });
    this.worker.on('message', (m: CheckpointMessage) => {
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
