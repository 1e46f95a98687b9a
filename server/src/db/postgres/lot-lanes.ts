/**
 * PostgreSQL's lot lanes (lot-batch.ts describes the three round trips): a queue per lot in this
 * process, drained one batch at a time; each batch gathers its commands' context, decides them against
 * a LotBatch and writes them in one call. A command that throws is taken out and the batch runs again
 * without it; deadlocks and serialization failures run the whole batch again.
 */
import type pg from 'pg';
import type { Result } from '../../errors.js';
import type { Applied } from '../change-set/types.js';
import { StoreUnavailable } from '../errors.js';
import { isStorableId } from '../rows.js';
import type { LotLanes, LotWork, PreparedChange } from '../store.js';
import { LotBatch, MAX_BATCH, NotInBatch, type CallersContext, type LotContext, type StoredNotice } from './lot-batch.js';
import { BEGIN, isRetryable, isUnavailable, runnerOn } from './runner.js';
interface Item {
  work: LotWork<object>;
  resolve: (result: Result<object> | null) => void;
  reject: (err: unknown) => void;
}

type Outcome =
  | { kind: 'refused'; result: Result<object> }
  | { kind: 'prepared'; prepared: PreparedChange<object>; applied: Applied };

/** A command of the batch failed (threw): the batch runs again without it. */
class ItemFailed extends Error {
  constructor(readonly index: number, readonly error: unknown) {
    super('a command of a lot batch failed');
  }
}

export class PostgresLotLanes implements LotLanes {
  private readonly lanes = new Map<string, Item[]>();
  /** Batches run and commands decided in them, for tests and diagnostics. */
  readonly stats = { batches: 0, commands: 0, largest: 0 };

  constructor(private readonly transact: (work: (client: pg.PoolClient) => Promise<Outcome[] | null>) => Promise<Outcome[] | null>) {}

  run<T extends object>(work: LotWork<T>): Promise<Result<T> | null> {
    if (!isStorableId(work.userId)) return Promise.resolve(null);
    return new Promise<Result<T> | null>((resolve, reject) => {
      const queue = this.lanes.get(work.productRef);
      const item: Item = { work: work, resolve: resolve, reject };
      if (queue) {
        queue.push(item);
        return;
      }
      this.lanes.set(work.productRef, [item]);
      void this.drain(work.productRef);
    });
  }

  /** Runs the lot's queue a batch at a time until it is empty. */
  private async drain(ref: string) {
    const queue = this.lanes.get(ref)!;
    while (queue.length > 0) {
      // One turn of the event loop first: bids already read from their sockets join this batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const items = queue.splice(0, MAX_BATCH);
      await this.batch(ref, items, queue);
    }
    this.lanes.delete(ref);
  }

  /**
   * Decides and writes `items` (retrying without any that throw) and settles each one's promise.
   * Commands that queued meanwhile may join it once it holds the lot (`once`), taken from `queue`.
   */
  private async batch(ref: string, items: Item[], queue: Item[]) {
    let left = items;
    while (left.length > 0) {
      try {
        const outcomes = await this.transact((client) => this.once(client, ref, left, queue));
        if (outcomes === null) {
          for (const item of left) item.resolve(null);
          return;
        }
        this.stats.batches++;
        this.stats.commands += left.length;
        this.stats.largest = Math.max(this.stats.largest, left.length);
        // Committed: each command's answer, in arrival order (their events are published in that order).
        left.forEach((item, i) => {
          const o = outcomes[i]!;
          try {
            item.resolve(o.kind === 'refused' ? o.result : { ok: true, ...o.prepared.finish(o.applied) });
          } catch (err) {
            item.reject(err);
          }
        });
        return;
      } catch (err) {
        if (err instanceof ItemFailed) {
          const failed = left[err.index]!;
          if (err.error instanceof NotInBatch) failed.resolve(null);
          else failed.reject(err.error);
          left = left.filter((_, i) => i !== err.index);
          continue;
        }
        for (const item of left) item.reject(err);
        return;
      }
    }
  }

  /**
   * One attempt, in a transaction the caller began nothing of: begins it, and commits or leaves it for
   * the caller to roll back. Commands that queued on the lot while its lock was awaited join `items`
   * (which they then stay in, should the batch run again), after those already in it: arrival order.
   */
  private async once(client: pg.PoolClient, ref: string, items: Item[], queue: Item[]): Promise<Outcome[] | null> {
    const callers = [...new Set(items.map((i) => i.work.userId))].sort((a, b) => a - b);
    const [, , read] = await client.query(
      `${BEGIN}; select lot_context(${client.escapeLiteral(ref)}, '{${callers.join(',')}}'::integer[], ${items.length}) as ctx`,
    ) as unknown as pg.QueryResult[];
    const context = (read!.rows[0] as { ctx: LotContext | null } | undefined)?.ctx ?? null;
    if (context === null) {
      // No live product with this id (a name, a deleted lot): every command runs on its own.
      await client.query('rollback');
      return null;
    }
    if (queue.length > 0 && items.length < MAX_BATCH) await this.gather(client, context, callers, items, queue);
    const sql = runnerOn(client);
    const lot = new LotBatch(context, sql, callers);
    const outcomes: Outcome[] = [];
    for (const [index, item] of items.entries()) {
      try {
        const prepared = await item.work.prepare(lot);
        if (!prepared.ok) {
          outcomes.push({ kind: 'refused', result: prepared });
          continue;
        }
        const applied = lot.applyNow(prepared.changes, item.work.now);
        outcomes.push({ kind: 'prepared', prepared, applied });
      } catch (error) {
        // The database's own trouble (a deadlock, a lost connection) is the batch's: it runs again or fails whole.
        if (isRetryable(error) || isUnavailable(error) || error instanceof StoreUnavailable) throw error;
        throw new ItemFailed(index, error);
      }
    }
    if (!lot.dirty) {
      await client.query('commit');
    } else {
      const { value, order } = lot.payload();
      const [write, commit] = await client.query(
        `select apply_lot_batch(${client.escapeLiteral(JSON.stringify(value))}::jsonb) as out; commit`,
      ) as unknown as pg.QueryResult[];
      // An aborted transaction's COMMIT rolls back and says so: nothing was written.
      if (commit?.command !== 'COMMIT') throw new Error('lot batch: the transaction was rolled back');
      const { out } = write!.rows[0] as { out: { notices: StoredNotice[]; unread: Record<string, number> } };
      lot.written(out.notices, out.unread, order);
    }
    return outcomes;
  }

  /**
   * Takes the commands queued on the lot since `items` were taken into the batch, now that it holds
   * the lot: their callers' wallets are locked (lot_context_more) and read into `context`, and they
   * join `items` and `callers`. A command whose caller's wallet could not be locked (another
   * transaction holds it: waiting for it here, out of id order, could deadlock; or there is no such
   * user) goes back to the head of the queue for the next batch, and so does every command behind it.
   */
  private async gather(client: pg.PoolClient, context: LotContext, callers: number[], items: Item[], queue: Item[]) {
    const more = queue.splice(0, MAX_BATCH - items.length);
    const known = new Set([...callers, ...(context.leader ? [context.leader.userId] : [])]);
    const asked = [...new Set(more.map((i) => i.work.userId).filter((id) => !known.has(id)))].sort((a, b) => a - b);
    const auction = context.auction ? client.escapeLiteral(context.auction.id) : 'null';
    let rows;
    try {
      ({ rows } = await client.query(
        `select lot_context_more(${client.escapeLiteral(context.product.id)}, ${auction}, '{${asked.join(',')}}'::integer[], ${more.length}) as more`,
      ));
    } catch (err) {
      // The batch fails or runs again without them: they wait for a batch of their own, as before.
      queue.unshift(...more);
      throw err;
    }
    const got = (rows[0] as { more: CallersContext }).more;
    context.wallets.push(...got.wallets);
    context.registered.push(...got.registered);
    context.cancelled.push(...got.cancelled);
    context.bidIds.push(...got.bidIds);
    context.ledgerIds.push(...got.ledgerIds);
    for (const w of got.wallets) {
      known.add(w.id);
      callers.push(w.id);
    }
    // In arrival order: from the first that cannot join, the rest wait too.
    const later = more.findIndex((item) => !known.has(item.work.userId));
    items.push(...(later < 0 ? more : more.slice(0, later)));
    if (later >= 0) queue.unshift(...more.slice(later));
  }
}

