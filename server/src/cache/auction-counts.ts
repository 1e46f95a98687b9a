/**
 * The counts per tab of `GET /api/catalogue/auctions` (docs/catalogue.md#paged-auctions), kept for a
 * moment: every page of a search asks for them again, and they are the one part of it that reads every
 * auction its filters let through. Under one set of filters they are read at most once per
 * COUNTS_TTL_MS of the caller's clock, and dropped whenever the store writes (`Reads.writeState`), so
 * that a write shows in them at once. Another server process on the same PostgreSQL database writes
 * unseen: its changes show within that time.
 */
import type { AuctionCountsFilter, AuctionTabCounts, Reads } from '../db/index.js';

/** How long the catalogue's counts per tab are kept (ms of the caller's clock). */
export const COUNTS_TTL_MS = 1_000;
/** Sets of filters whose counts are kept at once; past it, all are dropped. */
export const COUNTS_KEPT_MAX = 500;

export class AuctionCountsCache {
  private readonly kept = new Map<string, { at: number; value: AuctionTabCounts }>();
  /** The store's write generation the kept counts were read in. */
  private generation = 0;

  constructor(private readonly reads: Pick<Reads, 'auctionTabCounts' | 'writeState'>) {}

  async counts(f: AuctionCountsFilter): Promise<AuctionTabCounts> {
    const key = JSON.stringify([f.words, f.categoryIds, f.registeredBy, f.endingWithin]);
    const before = this.reads.writeState();
    if (before.generation !== this.generation) {
      this.kept.clear();
      this.generation = before.generation;
    }
    const kept = this.kept.get(key);
    if (kept && f.now >= kept.at && f.now - kept.at < COUNTS_TTL_MS) return kept.value;
    const value = await this.reads.auctionTabCounts(f);
    // A write that began while this read ran (or was under way as it began) may or may not be in it: keep it only if none did.
    const after = this.reads.writeState();
    if (after.generation === before.generation && after.open === 0) {
      if (this.kept.size >= COUNTS_KEPT_MAX) this.kept.clear();
      this.kept.set(key, { at: f.now, value });
    }
    return value;
  }
}
