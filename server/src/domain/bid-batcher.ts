/**
 * Group commit for bids. The bids that arrive in one turn of the event loop are decided one by one,
 * in arrival order, each in its own savepoint, inside ONE immediate transaction: they share one
 * commit and so one fsync (DESIGN §4's rules are unchanged: each bid sees every bid before it).
 * Each caller gets its own result once the transaction has committed, and the events of the whole
 * batch are published then, in commit order. With one bid in flight the batch is that bid alone, so
 * a quiet server answers as fast as before.
 */
import type { Db } from '../db/index.js';
import type { Result } from '../errors.js';
import { applyBid, type BidCommand, type PlacedBid } from './bidding.js';
import type { DomainEvent } from './events.js';

interface Pending {
  cmd: BidCommand;
  resolve: (result: Result<PlacedBid>) => void;
  reject: (err: unknown) => void;
}

type Outcome = { result: Result<PlacedBid> } | { error: unknown };

export interface BidBatcherOptions {
  db: Db;
  now: () => number;
  /** Receives the events of each committed batch, in commit order. */
  publish: (events: readonly DomainEvent[]) => void;
  /** Upper bound on bids per transaction, so one commit never holds the loop for long. */
  maxBatch?: number;
}

export class BidBatcher {
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly maxBatch: number;

  constructor(private readonly opts: BidBatcherOptions) {
    this.maxBatch = opts.maxBatch ?? 256;
  }

  /** Queues a bid for the next group commit; resolves with its own result after that commit. */
  place(cmd: BidCommand): Promise<Result<PlacedBid>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ cmd, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request read in this turn is in the batch.
    setImmediate(this.flush);
  }

  private readonly flush = () => {
    this.scheduled = false;
    const batch = this.queue.splice(0, this.maxBatch);
    if (this.queue.length > 0) this.schedule();
    if (batch.length === 0) return;

    const { db, now } = this.opts;
    const client = db.$client;
    let outcomes: Outcome[];
    try {
      outcomes = client.transaction(() => batch.map(({ cmd }): Outcome => {
        try {
          // A nested better-sqlite3 transaction is a savepoint: a bid that throws undoes only itself.
          return { result: client.transaction(() => applyBid(db, cmd, now()))() };
        } catch (error) {
          return { error };
        }
      })).immediate();
    } catch (error) {
      // The commit itself failed (disk full, I/O error): nothing of the batch was applied.
      for (const p of batch) p.reject(error);
      return;
    }

    const events: DomainEvent[] = [];
    for (const o of outcomes) if ('result' in o && o.result.ok) events.push(...o.result.events);
    if (events.length > 0) this.opts.publish(events);
    batch.forEach((p, i) => {
      const o = outcomes[i]!;
      if ('result' in o) p.resolve(o.result);
      else p.reject(o.error);
    });
  };
}
