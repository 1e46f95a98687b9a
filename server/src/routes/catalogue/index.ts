/**
 * The paged public catalogue (docs/catalogue.md): lot search. Public reads: no token needed (none is
 * looked at), limited per address. Pages are keyset pages behind opaque cursors, never OFFSET.
 */
import {
  AUCTION_PAGE_DEFAULT, AuctionSearchPage, AuctionSearchQuery, LOT_PAGE_DEFAULT, LotSearchPage, LotSearchQuery, SEARCH_TOTAL_MAX, errorResponses, toPaise, type LotSort,
} from '@auction/shared';
import { AuctionCountsCache } from '../../cache/auction-counts.js';
import type { App, AppContext } from '../../context.js';
import { queryWords } from '../../db/search/query.js';
import { presentAuctionCard, presentLotCard } from '../../presenters/browse.js';
import { pageLimit } from '../input.js';
import { decodeCursor, encodeCursor } from '../cursor.js';

/** The `ending` tab: auctions that end within this long. */
const ENDING_WITHIN_MS = 24 * 3_600_000;

export function browseRoutes(app: App, ctx: AppContext) {
  const { reads } = ctx;
  const tabCounts = new AuctionCountsCache(reads);
  /** A category filter: its ids (with its subcategories'), `[]` for an unknown one, null for none. */
  const categoryIdsOf = async (category: string | undefined): Promise<number[] | null> => {
    if (category === undefined) return null;
    const scope = await reads.categoryScope(/^[0-9]{1,15}$/.test(category) ? Number(category) : category);
    return scope ? scope.ids : [];
  };

  app.get('/catalogue/auctions', {
    onRequest: ctx.optionalCaller,
    config: ctx.publicReadLimit,
    schema: {
      tags: ['catalogue'],
      summary: 'Browse auctions a page at a time (public; a bidder’s token adds `registered`): active, ending within 24 h or ended, with counts per tab',
      description: 'Keyset pages: pass `next_cursor` as `cursor` (with the same tab, filters and sort). Counts obey the same filters.',
      querystring: AuctionSearchQuery,
      response: { 200: AuctionSearchPage, ...errorResponses(400, 429) },
    },
  }, async (req) => {
    const q = req.query;
    const tab = q.tab ?? 'active';
    const sort = q.sort ?? 'ending';
    const order = `auctions:${tab}:${sort}`;
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor, order);
    const limit = pageLimit(q.limit, AUCTION_PAGE_DEFAULT);
    const userId = req.caller?.role === 'user' ? req.caller.id : null;
    const none = { items: [], next_cursor: null, counts: { active: 0, ending: 0, ended: 0 } };
    let words: string[] | null = null;
    if (q.q !== undefined && q.q.trim() !== '') {
      words = queryWords(q.q);
      if (words.length === 0) return none;
    }
    if (q.registered === '1' && userId === null) return none;
    const now = ctx.now();
    const filter = { words, categoryIds: await categoryIdsOf(q.category), registeredBy: q.registered === '1' ? userId : null, now, endingWithin: ENDING_WITHIN_MS };
    const found = await reads.searchAuctions({ ...filter, tab, sort, after, limit: limit + 1 });
    const counts = await tabCounts.counts(filter);
    const ids = found.ids.slice(0, limit);
    const views = new Map((await reads.auctions({ ids })).map((a) => [a.id, a]));
    const registered = userId === null || ids.length === 0 ? new Set<string>() : new Set(await reads.registeredAuctionIds(userId));
    return {
      items: ids.flatMap((id) => {
        const a = views.get(id);
        return a ? [presentAuctionCard(a, now, registered.has(id))] : [];
      }),
      next_cursor: found.ids.length > limit ? encodeCursor(order, found.keys[limit - 1]!) : null,
      counts,
    };
  });

  app.get('/catalogue/lots', {
    config: ctx.publicReadLimit,
    schema: {
      tags: ['catalogue'],
      summary: 'Search lots, a page at a time (public): words, category, auction, price, buy-now, open or ended; by relevance, ending, price or bids',
      description: 'Keyset pages: pass `next_cursor` as `cursor` for the next page (with the same filters and sort). A query of only common words or symbols finds nothing. `total` counts up to 1,000 (past it, 1,001).',
      querystring: LotSearchQuery,
      response: { 200: LotSearchPage, ...errorResponses(400, 429) },
    },
  }, async (req) => {
    const q = req.query;
    const sort: LotSort = q.sort ?? (q.q !== undefined && q.q.trim() !== '' ? 'relevance' : 'ending');
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor, `lots:${sort}`);
    const limit = pageLimit(q.limit, LOT_PAGE_DEFAULT);
    const empty = { items: [], next_cursor: null, total: 0 };
    let words: string[] | null = null;
    if (q.q !== undefined && q.q.trim() !== '') {
      words = queryWords(q.q);
      // Only stop words or symbols: nothing to look for, which is an empty result (not an error).
      if (words.length === 0) return empty;
    }
    const categoryIds = await categoryIdsOf(q.category);
    const minPrice = q.min_price === undefined ? null : toPaise(Number(q.min_price));
    const maxPrice = q.max_price === undefined ? null : toPaise(Number(q.max_price));
    const now = ctx.now();
    const { hits, total } = await reads.searchLots({
      words, categoryIds, auctionId: q.auction_id ?? null, minPrice, maxPrice, buyNow: q.buy_now === '1',
      status: q.status ?? 'open', sort, after, limit: limit + 1, now,
    }, SEARCH_TOTAL_MAX);
    const page = hits.slice(0, limit);
    return {
      items: page.map((h) => presentLotCard(h)),
      next_cursor: hits.length > limit ? encodeCursor(`lots:${sort}`, page.at(-1)!.key) : null,
      total,
    };
  });
}
