/**
 * The one place that runs commands (docs/architecture.md): a command's unit of work runs in one store
 * transaction, and the events it returns are published only after that transaction has committed,
 * in commit order. Routes and the scheduler call commands through here and never publish by hand.
 */
import type { LotWork, Store, UnitOfWork } from '../db/index.js';
import type { Result } from '../errors.js';
import type { DomainEvent, EventBus } from './events.js';

export type Work<T extends object> = (tx: UnitOfWork) => Promise<Result<T & { events?: DomainEvent[] }>>;

export class Commands {
  constructor(private readonly store: Store, private readonly events: EventBus) {}

  /** Committed data, for the reads a command does before its transaction (a password check). */
  get reads() {
    return this.store.reads;
  }

  /** Runs one command in its own transaction and publishes its events once it has committed. */
  async run<T extends object>(work: Work<T>): Promise<Result<T & { events?: DomainEvent[] }>> {
    const result = await this.store.transaction(work);
    if (result.ok && result.events && result.events.length > 0) this.events.publish(result.events);
    return result;
  }

  /**
   * A command on one lot (a bid, a buy-now): where the store has lot lanes it is decided in the lot's
   * next batch with the others queued there (PostgreSQL); otherwise, or when the batch hands it back,
   * in a transaction of its own. Its events are published once it has committed, as `run` does.
   */
  async onLot<T extends object>(work: LotWork<T & { events?: DomainEvent[] }>): Promise<Result<T & { events?: DomainEvent[] }>> {
    const batched = this.store.lots === null ? null : await this.store.lots.run(work);
    const result = batched ?? await this.store.transaction(async (tx) => {
      const prepared = await work.prepare(tx);
      if (!prepared.ok) return prepared;
      return { ok: true as const, ...prepared.finish(await tx.apply(prepared.changes, work.now)) };
    });
    if (result.ok && result.events && result.events.length > 0) this.events.publish(result.events);
    return result;
  }

  /** Events that no transaction wrote (the clock's notices: an auction is ending, has ended). */
  announce(events: DomainEvent[]) {
    this.events.publish(events);
  }
}
