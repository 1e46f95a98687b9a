/**
 * `GET /api/auctions` from memory. The list (every auction with its product ids, its cover, and its
 * lots' highest bid and bid count: Browse's cards, docs/architecture.md#caches) is read once and kept until a committed change could
 * alter it:
 *
 * - A catalogue change (any domain event of this process but the bid, wallet and notice traffic
 *   below) or another process's catalogue announcement discards it at once: the next request reads
 *   it again. Photo changes of a lot in an auction count (domain/photos.ts announces the auction).
 * - Bid traffic changes only prices and counts (PRICES): it marks them stale, and a request re-reads
 *   the list only once the snapshot is also PRICE_MAX_AGE_MS old; until then it is served as it is.
 *   Under a bid storm the list is read about once a second however many bids and requests arrive,
 *   and Browse shows this process's bids about a second late at most.
 * - Nothing is served older than MAX_AGE_MS. That is the safety net for a catalogue announcement lost
 *   with Redis, and the only way other processes' bids reach this one (bids are not announced across
 *   processes, only to the auction's rooms): there, prices are up to 5 s behind.
 *
 * The caller's own registrations are read per request (one indexed statement), so a registration made
 * through any process shows at once. Status is computed from the clock on each request, as before.
 *
 * ETag: the cache's boot id and the version of the content (each read that finds a content other than
 * the snapshot it replaces takes a new number, never used before; one that finds the same keeps it), how
 * many of its auctions have ended by now (status moves only that way between changes) and a hash of the
 * caller's registrations. A client that sends it back with nothing changed gets 304 and no body; a
 * changed price, once read, always changes it.
 */
import { randomBytes } from 'node:crypto';
import type { Auction } from '@auction/shared';
import type { AuctionView, Reads } from '../db/index.js';
import type { DomainEvent, DomainEventType } from '../domain/events.js';
import { presentAuction } from '../presenters/catalogue.js';

/**
 * What a domain event does to the list; an event not named here never changes it by itself:
 *
 * - `prices`: it changes a lot's highest bid or bid count, and nothing else the list shows.
 * - not named: the bidders' own news, which always comes with a `prices` event (`bid:outbid` with a
 *   bid or a purchase, `bid:reinstated` with a rollback, `bid:won` with a sale) or with
 *   `auction:settled` (`bid:unsold`); wallets, notices, sign-outs; and the end of an auction (its
 *   status follows the clock).
 * - `catalogue`: anything else the list shows (a deactivation releases the bidder's leading bids).
 */
const LIST_EFFECT: Partial<Record<DomainEventType, 'prices' | 'catalogue'>> = {
  'bid:placed': 'prices',
  'bid:rolledback': 'prices',
  'product:sold': 'prices',
  'auction:created': 'catalogue',
  'auction:updated': 'catalogue',
  'auction:deleted': 'catalogue',
  'auction:extended': 'catalogue',
  'auction:settled': 'catalogue',
  'account:deactivated': 'catalogue',
};

/** The events the list subscribes to (`EventBus.onBatch`: a command's bids count as one price change). */
export const AUCTION_LIST_EVENTS = Object.keys(LIST_EFFECT) as DomainEventType[];

/**
 * The oldest a snapshot is ever served. A safety net for several processes: a catalogue announcement
 * lost with Redis (it was away) is made good this long after, at most, and other processes' bids show
 * this long after, at most. One process never misses a catalogue change (its own commits).
 */
const MAX_AGE_MS = 5000;

/** The oldest a snapshot is served once this process's bids have made its prices stale. */
export const PRICE_MAX_AGE_MS = 1000;

interface Snapshot {
  /** The catalogue generation it was read in. */
  generation: number;
  /** Names its content in the ETag. */
  version: number;
  /** When its read began. */
  at: number;
  /** How many price changes this process had published when its read began. */
  prices: number;
  views: AuctionView[];
  /** The views as JSON, to tell whether the next read found anything new. */
  text: string;
}

export interface AuctionListAnswer {
  etag: string;
  /** Null when the caller's `If-None-Match` already names this content (answer 304). */
  body: Auction[] | null;
}

export class AuctionListCache {
  private readonly boot = randomBytes(4).toString('hex');
  /** Bumped by every catalogue change: a snapshot of an older generation is never served. */
  private generation = 0;
  /** Bumped by every batch of this process's events that changes a price or a bid count. */
  private prices = 0;
  /** The last content version handed out. */
  private version = 0;
  /** The latest snapshot kept (served only while of the current generation and fresh). */
  private list: Snapshot | null = null;
  private loading: { generation: number; promise: Promise<Snapshot> } | null = null;
  /** Reads and hits, for tests and diagnostics. */
  readonly stats = { reads: 0, hits: 0 };

  constructor(private readonly reads: Reads, private readonly now: () => number) {}

  /** Committed domain events of this process. */
  readonly onEvents = (events: readonly DomainEvent[]) => {
    let prices = false;
    for (const e of events) {
      const effect = LIST_EFFECT[e.type];
      if (effect === 'prices') prices = true;
      else if (effect === 'catalogue') {
        this.invalidate();
        return;
      }
    }
    if (prices) this.prices++;
  };

  /** A change this process cannot see in its own events (another process committed it). */
  invalidate = () => {
    this.generation++;
  };

  async answer(callerUserId: number | null, ifNoneMatch: string | undefined): Promise<AuctionListAnswer> {
    const [{ version, views }, registered] = await Promise.all([
      this.views(),
      callerUserId === null ? Promise.resolve([] as string[]) : this.reads.registeredAuctionIds(callerUserId),
    ]);
    const now = this.now();
    let ended = 0;
    for (const v of views) if (v.validUntil <= now) ended++;
    const etag = `W/"${this.boot}-${version}-${ended}-${hash(registered)}"`;
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim() === etag)) return { etag, body: null };
    const mine = new Set(registered);
    return { etag, body: views.map((a) => presentAuction(a, callerUserId, now, callerUserId !== null && mine.has(a.id))) };
  }

  /** Whether a snapshot of the current generation may still be served at `now`. */
  private fresh(list: Snapshot, now: number): boolean {
    const age = now - list.at;
    return age < MAX_AGE_MS && (list.prices === this.prices || age < PRICE_MAX_AGE_MS);
  }

  /**
   * The list and the version of its content. One read at a time per generation: every request that
   * finds the snapshot unusable while a read is under way waits for that read.
   */
  private async views(): Promise<Snapshot> {
    const now = this.now();
    const list = this.list;
    if (list && list.generation === this.generation && this.fresh(list, now)) {
      this.stats.hits++;
      return list;
    }
    // One read for every request waiting on the same generation.
    if (this.loading?.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    // Price changes published from here on are not known to be in this read: they leave it stale.
    const prices = this.prices;
    const promise = this.reads.auctions().then((views) => {
      this.stats.reads++;
      const text = JSON.stringify(views);
      // The same content keeps its name (a client holding it still gets 304); any other gets a new one.
      const kept = this.list;
      const version = kept !== null && kept.text === text ? kept.version : ++this.version;
      const read: Snapshot = { generation, version, at: now, prices, views, text };
      // A catalogue change committed while reading leaves it unkept (the next request reads again).
      if (generation === this.generation) this.list = read;
      return read;
    }).finally(() => {
      if (this.loading?.promise === promise) this.loading = null;
    });
    this.loading = { generation, promise };
    return promise;
  }
}

/** FNV-1a over the sorted ids: a short, stable name for a set of registrations. */
function hash(ids: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const id of [...ids].sort()) {
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0, 0x01000193);
  }
  return (h >>> 0).toString(36) + ids.length.toString(36);
}
