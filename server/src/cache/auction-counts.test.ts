import { describe, expect, it } from 'vitest';
import type { AuctionCountsFilter, AuctionTabCounts, WriteState } from '../db/index.js';
import { AuctionCountsCache, COUNTS_KEPT_MAX, COUNTS_TTL_MS } from './auction-counts.js';

/** A store that counts its reads and lets a test begin and end writes, or write while a read runs. */
function fakeReads() {
  const state: WriteState = { generation: 0, open: 0 };
  let reads = 0;
  let duringRead: (() => void) | null = null;
  return {
    get reads() { return reads; },
    writing(begins: boolean) { state.open += begins ? 1 : -1; state.generation++; },
    duringNextRead(fn: () => void) { duringRead = fn; },
    writeState: (): WriteState => ({ ...state }),
    auctionTabCounts: async (_f: AuctionCountsFilter): Promise<AuctionTabCounts> => {
      reads++;
      await Promise.resolve();
      duringRead?.();
      duringRead = null;
      return { active: reads, ending: 0, ended: 0 };
    },
  };
}

const filter = (now: number, over: Partial<AuctionCountsFilter> = {}): AuctionCountsFilter =>
  ({ words: null, categoryIds: null, registeredBy: null, endingWithin: 86_400_000, now, ...over });

describe('AuctionCountsCache', () => {
  it('keeps the counts of one set of filters for COUNTS_TTL_MS of the caller’s clock, then reads again', async () => {
    const store = fakeReads();
    const cache = new AuctionCountsCache(store);
    expect(await cache.counts(filter(10_000))).toEqual({ active: 1, ending: 0, ended: 0 });
    expect(await cache.counts(filter(10_000 + COUNTS_TTL_MS - 1))).toEqual({ active: 1, ending: 0, ended: 0 });
    expect(store.reads).toBe(1);
    expect(await cache.counts(filter(10_000 + COUNTS_TTL_MS))).toEqual({ active: 2, ending: 0, ended: 0 });
    // A clock moved back reads again too.
    expect((await cache.counts(filter(9_999))).active).toBe(3);
  });

  it('keys the counts by their filters', async () => {
    const store = fakeReads();
    const cache = new AuctionCountsCache(store);
    await cache.counts(filter(0));
    await cache.counts(filter(0, { words: ['vintage'] }));
    await cache.counts(filter(0, { categoryIds: [1, 2] }));
    await cache.counts(filter(0, { registeredBy: 7 }));
    await cache.counts(filter(0, { endingWithin: 1 }));
    expect(store.reads).toBe(5);
    await cache.counts(filter(1, { words: ['vintage'] }));
    await cache.counts(filter(1, { categoryIds: [1, 2] }));
    expect(store.reads).toBe(5);
  });

  it('drops what it keeps whenever the store writes, though the clock has not moved', async () => {
    const store = fakeReads();
    const cache = new AuctionCountsCache(store);
    await cache.counts(filter(0));
    store.writing(true);
    // Read while the write is under way: served, never kept.
    expect((await cache.counts(filter(0))).active).toBe(2);
    expect((await cache.counts(filter(0))).active).toBe(3);
    store.writing(false);
    expect((await cache.counts(filter(0))).active).toBe(4);
    expect((await cache.counts(filter(0))).active).toBe(4);
  });

  it('does not keep counts read while a write began and ended', async () => {
    const store = fakeReads();
    const cache = new AuctionCountsCache(store);
    store.duringNextRead(() => { store.writing(true); store.writing(false); });
    expect((await cache.counts(filter(0))).active).toBe(1);
    expect((await cache.counts(filter(0))).active).toBe(2);
    expect((await cache.counts(filter(0))).active).toBe(2);
  });

  it(`keeps at most ${COUNTS_KEPT_MAX} sets of filters, then drops them all`, async () => {
    const store = fakeReads();
    const cache = new AuctionCountsCache(store);
    for (let i = 0; i < COUNTS_KEPT_MAX; i++) await cache.counts(filter(0, { registeredBy: i }));
    await cache.counts(filter(0, { registeredBy: 0 }));
    expect(store.reads).toBe(COUNTS_KEPT_MAX);
    await cache.counts(filter(0, { registeredBy: COUNTS_KEPT_MAX }));
    await cache.counts(filter(0, { registeredBy: 0 }));
    expect(store.reads).toBe(COUNTS_KEPT_MAX + 2);
  });
});
