/**
 * The paged public catalogue (docs/catalogue.md): lot search. Public reads: no token needed (none is
 * looked at), limited per address. Pages are keyset pages behind opaque cursors, never OFFSET.
 */
import { LOT_PAGE_DEFAULT, LotSearchPage, LotSearchQuery, SEARCH_TOTAL_MAX, errorResponses, toPaise, type LotSort } from '@auction/shared';
import type { App, AppContext } from '../context.js';
import type { LotSearchKey } from '../db/index.js';
import { queryWords } from '../db/search.js';
import { AppError } from '../errors.js';
import { presentLotCard } from '../presenters/browse.js';
import { pageLimit } from './input.js';

/** A cursor names the sort it belongs to and the last lot's place in it: `base64url(JSON [1, sort, key, id])`. */
const CURSOR_VERSION = 1;

export function encodeLotCursor(sort: LotSort, key: LotSearchKey): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, sort, key.key, key.id])).toString('base64url');
}

/** The place a cursor names, or 400 VALIDATION for anything that is not a cursor of this sort. */
export function decodeLotCursor(text: string, sort: LotSort): LotSearchKey {
  const refuse = () => new AppError('VALIDATION', 'cursor must be the next_cursor of a page of this search', 'cursor');
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw refuse();
  let parsed: unknown;
  try { parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')); } catch { throw refuse(); }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw refuse();
  const [version, cursorSort, key, id] = parsed as unknown[];
  if (version !== CURSOR_VERSION || cursorSort !== sort) throw refuse();
  if (typeof key !== 'number' || !Number.isSafeInteger(key)) throw refuse();
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) throw refuse();
  return { key, id };
}

export function browseRoutes(app: App, ctx: AppContext) {
  const { reads } = ctx;

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
    const after = q.cursor === undefined ? null : decodeLotCursor(q.cursor, sort);
    const limit = pageLimit(q.limit, LOT_PAGE_DEFAULT);
    const empty = { items: [], next_cursor: null, total: 0 };
    let words: string[] | null = null;
    if (q.q !== undefined && q.q.trim() !== '') {
      words = queryWords(q.q);
      // Only stop words or symbols: nothing to look for, which is an empty result (not an error).
      if (words.length === 0) return empty;
    }
    let categoryIds: number[] | null = null;
    if (q.category !== undefined) {
      const scope = await reads.categoryScope(/^[0-9]{1,15}$/.test(q.category) ? Number(q.category) : q.category);
      if (!scope) return empty;
      categoryIds = scope.ids;
    }
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
      next_cursor: hits.length > limit ? encodeLotCursor(sort, page.at(-1)!.key) : null,
      total,
    };
  });
}
