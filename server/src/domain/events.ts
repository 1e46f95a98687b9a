/**
 * What a command did, for the live channel to publish after the transaction has committed
 * (docs/architecture.md; the payloads: docs/live-protocol.md). Amounts are paise; presenters turn these into socket payloads.
 */
import type { PersonalEventMap, RoomEventName } from '@auction/shared';
import type { NotificationRow } from '../db/index.js';

/**
 * Every domain event's name: each event of the live contract (shared/src/live.ts) but the watcher
 * count (the hub counts watchers itself), and those no socket hears under their own name. A live
 * event added to the contract is a domain event to add here, and the deliveries table (live/deliveries.ts)
 * then fails to compile until it says who hears it; every other consumer names the events it uses (`EventBus.on`).
 */
export type DomainEventType =
  | Exclude<RoomEventName, 'auction:watchers'>
  | keyof PersonalEventMap
  | 'bid:unsold' | 'account:deactivated' | 'account:revoked';

export type DomainEvent =
  | {
    type: 'bid:placed'; auctionId: string; ownerId: number; productId: string; bidId: number; highest: number; bidCount: number; version: number;
    bidderId: number; bidder: string; amount: number; at: number;
    /** The lowest acceptable next bid; whether the reserve is met (null: none); an automatic raise of a proxy; buy-now still open. */
    minNext: number; reserveMet: boolean | null; auto: boolean; buyNowAvailable: boolean;
  }
  | { type: 'bid:rolledback'; auctionId: string; ownerId: number; productId: string; highest: number; bidCount: number; version: number; minNext: number; reserveMet: boolean | null; buyNowAvailable: boolean }
  | { type: 'product:sold'; auctionId: string; ownerId: number; productId: string; amount: number; version: number; buyNow: boolean }
  /** Soft close moved the end (docs/bidding.md#soft-close). */
  | { type: 'auction:extended'; auctionId: string; ownerId: number; validUntil: number; originalValidUntil: number }
  | { type: 'auction:settled'; auctionId: string; ownerId: number }
  | { type: 'auction:ending'; auctionId: string; ownerId: number; secondsLeft: number }
  | { type: 'auction:ended'; auctionId: string; ownerId: number }
  | { type: 'auction:created' | 'auction:updated'; auctionId: string; ownerId: number }
  | { type: 'auction:deleted'; auctionId: string; ownerId: number }
  | { type: 'bid:outbid'; userId: number; auctionId: string; productId: string; productName: string; highest: number }
  | { type: 'bid:reinstated' | 'bid:won'; userId: number; auctionId: string; productId: string; amount: number }
  /** The reserve was not met at the close: the bidder's hold is back, the lot unsold. */
  | { type: 'bid:unsold'; userId: number; auctionId: string; productId: string; productName: string; amount: number }
  | { type: 'wallet:updated'; userId: number; balance: number }
  /** A notice written for a bidder (docs/notifications.md), with their unread count after the change. */
  | { type: 'notification:new'; userId: number; notification: NotificationRow; unread: number }
  /** A bidder was deactivated: their live connections close. */
  | { type: 'account:deactivated'; userId: number }
  /** An account's password changed: its live connections opened with older tokens (version < ver) close. */
  | { type: 'account:revoked'; role: 'user' | 'admin'; id: number; ver: number };

/** The domain event of a name (a variant may carry two names: `auction:created | auction:updated`). */
export type DomainEventOf<K extends DomainEventType> = DomainEvent extends infer E ? (E extends DomainEvent ? (K extends E['type'] ? E : never) : never) : never;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while DomainEvent has a variant for every name of DomainEventType, and no other. */
const _everyNameHasAnEvent: Same<DomainEvent['type'], DomainEventType> = true;

export type EventListener = (events: readonly DomainEvent[]) => void;

/** The names a consumer subscribes to: one, or several (handled in commit order across them). */
type Names<K extends DomainEventType> = K | readonly K[];
const nameSet = (types: Names<DomainEventType>): ReadonlySet<DomainEventType> => new Set(typeof types === 'string' ? [types] : types);

/**
 * The one place committed events go: the command runner (commands.ts) publishes, the live channel
 * and the scheduler subscribe. Listeners run synchronously in commit order, so per-product order is kept.
 * A consumer names the events it uses (`on`, `onBatch`); only the live channel's deliveries table
 * (live/deliveries.ts) handles every one, so an event nobody delivers fails to compile there alone.
 */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** Every command's events, as one batch in commit order: for the one consumer that handles them all (the live hub). */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Each committed event of these names, in commit order (across the names too). Returns the unsubscribe function. */
  on<K extends DomainEventType>(types: Names<K>, handler: (e: DomainEventOf<K>) => void): () => void {
    const wanted = nameSet(types);
    return this.subscribe((events) => {
      for (const e of events) if (wanted.has(e.type)) handler(e as DomainEventOf<K>);
    });
  }

  /**
   * A command's events of these names as one batch, in commit order; not called when it has none. For
   * consumers that merge what one command did (the auction list counts a batch of bids as one change).
   */
  onBatch<K extends DomainEventType>(types: Names<K>, handler: (events: readonly DomainEventOf<K>[]) => void): () => void {
    const wanted = nameSet(types);
    return this.subscribe((events) => {
      const mine = events.filter((e) => wanted.has(e.type));
      if (mine.length > 0) handler(mine as DomainEventOf<K>[]);
    });
  }

  publish(events: readonly DomainEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.listeners) listener(events);
  }
}
