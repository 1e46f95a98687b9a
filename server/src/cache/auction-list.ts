/**
 * `GET /api/auctions` from memory. The list (every auction with its product ids) is read once and kept
 * until a committed change could alter it: any domain event but the bid and wallet traffic, which
 * never touches the list (it carries no prices), and any other process's catalogue announcement. The
 * caller's own registrations are read per request (one indexed statement), so a registration made
 * through any process shows at once. Status is computed from the clock on each request, as before.
 *
 * ETag: the cache's boot id and generation (which content), how many of its auctions have ended by
 * now (status moves only that way between changes) and a hash of the caller's registrations. A client
 * that sends it back with nothing changed gets 304 and no body.
 */
import { randomBytes } from 'node:crypto';
import type { Auction } from '@auction/shared';
import type { AuctionView, Reads } from '../db/index.js';
import type { DomainEvent } from '../domain/events.js';
import { presentAuction } from '../presenters/catalogue.js';

/** Events that never change the list: bids, outbids, wallets, sign-outs. */
const IRRELEVANT = new Set<DomainEvent['type']>([
  'bid:placed', 'bid:rolledback', 'bid:outbid', 'bid:reinstated', 'bid:won', 'wallet:updated', 'product:sold',
  'auction:ending', 'auction:ended', 'account:revoked', 'bid:unsold',
  'notification:new',
]);

/**
 * A safety net for several processes: a catalogue announcement lost with Redis (it was away) is
 * made good this long after, at most. One process never misses a change (its own commits).
 */
const MAX_AGE_MS = 5000;

export interface AuctionListAnswer {
  etag: string;
  /** Null when the caller's `If-None-Match` already names this content (answer 304). */
  body: Auction[] | null;
}

export class AuctionListCache {
  private readonly boot = randomBytes(4).toString('hex');
  private generation = 0;
  private list: { generation: number; at: number; views: AuctionView[] } | null = null;
  private loading: { generation: number; promise: Promise<{ generation: number; views: AuctionView[] }> } | null = null;
  /** Reads and hits, for tests and diagnostics. */
  readonly stats = { reads: 0, hits: 0 };

  constructor(private readonly reads: Reads, private readonly now: () => number) {}

  /** Committed domain events of this process. */
  readonly onEvents = (events: readonly DomainEvent[]) => {
    if (events.some((e) => !IRRELEVANT.has(e.type))) this.invalidate();
  };

  /** A change this process cannot see in its own events (another process committed it). */
  invalidate = () => {
    this.generation++;
    this.list = null;
  };

  async answer(callerUserId: number | null, ifNoneMatch: string | undefined): Promise<AuctionListAnswer> {
    const [{ generation, views }, registered] = await Promise.all([
      this.views(),
      callerUserId === null ? Promise.resolve([] as string[]) : this.reads.registeredAuctionIds(callerUserId),
    ]);
    const now = this.now();
    let ended = 0;
    for (const v of views) if (v.validUntil <= now) ended++;
    const etag = `W/"${this.boot}-${generation}-${ended}-${hash(registered)}"`;
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((t) => t.trim() === etag)) return { etag, body: null };
    const mine = new Set(registered);
    return { etag, body: views.map((a) => presentAuction(a, callerUserId, now, callerUserId !== null && mine.has(a.id))) };
  }

  /**
   * The list and the generation it belongs to. Only one read is ever kept per generation, so one
   * ETag never names two contents.
   */
  private async views(): Promise<{ generation: number; views: AuctionView[] }> {
    const list = this.list;
    if (list && list.generation === this.generation && this.now() - list.at < MAX_AGE_MS) {
      this.stats.hits++;
      return list;
    }
    // One read for every request waiting on the same generation.
    if (this.loading?.generation === this.generation) return this.loading.promise;
    const generation = this.generation;
    const promise = this.reads.auctions().then((views) => {
      this.stats.reads++;
      const read = { generation, at: this.now(), views };
      // A change committed while reading leaves the cache empty (the next request reads again).
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
