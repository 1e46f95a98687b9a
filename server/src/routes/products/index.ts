/**
 * The lot page (docs/photos.md#the-lot-page): one product with its auction and its history. Public, so a
 * shared lot link opens for a visitor too; a token adds the caller's own standing (docs/catalogue.md).
 */
import { IdParams, LOT_HISTORY_PAGE, LotHistoryPage, LotHistoryQuery, LotPage, errorResponses } from '@auction/shared';
import type { LotHistoryKey, LotHistoryView, Reads } from '../../db/index.js';
import type { App, AppContext } from '../../context.js';
import { presentAuction, presentProduct } from '../../presenters/catalogue.js';
import { presentLotHistory, presentLotHistoryCursor } from '../../presenters/photos.js';
import { lotHistoryKey, pageLimit, readableProduct } from '../input.js';

/** A page of a lot's history, and where the next one starts (null: none). */
async function historyPage(reads: Reads, productId: string, auctionId: string, after: LotHistoryKey | null, limit: number): Promise<{ rows: LotHistoryView[]; next: string | null }> {
  const rows = await reads.lotHistory(productId, auctionId, { after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return { rows: page, next: rows.length > limit ? presentLotHistoryCursor(page.at(-1)!) : null };
}

export function productPageRoutes(app: App, ctx: AppContext) {
  const { reads } = ctx;

  app.get('/products/:id', {
    onRequest: ctx.optionalCaller,
    config: ctx.publicReadLimit,
    schema: {
      tags: ['auctions'], security: [{}, { bearer: [] }],
      summary: `A lot: the product (with the caller’s own standing), its auction and the first ${LOT_HISTORY_PAGE} entries of its history, highest first`,
      description: 'Public: without a token (or with one that is no longer valid) the lot reads as a visitor sees it, with no `my_status` and no reserve. Bidders appear as "Bidder n" (stable per lot), the caller as "You"; the auction’s own admin sees usernames. Automatic raises of maximum bids are entries with `auto: true`.',
      params: IdParams,
      response: { 200: LotPage, ...errorResponses(404, 429) },
    },
  }, async (req) => {
    const caller = req.caller;
    const now = ctx.now();
    const product = readableProduct(await reads.product(req.params.id, now), caller);
    const auctionId = product.auctionId;
    const [auction, history, standings] = await Promise.all([
      auctionId === null ? null : reads.auction(auctionId),
      auctionId === null ? { rows: [], next: null } : historyPage(reads, product.id, auctionId, null, LOT_HISTORY_PAGE),
      auctionId !== null && caller?.role === 'user' ? reads.myStandings(caller.id, auctionId) : [],
    ]);
    const userId = caller?.role === 'user' ? caller.id : null;
    const viewer = caller?.role === 'admin' ? { adminId: caller.id } : { standing: standings.find((s) => s.productId === product.id) ?? null };
    return {
      ...presentProduct(product, viewer),
      auction: auction ? presentAuction(auction, userId, now) : null,
      bids: presentLotHistory(history.rows, { userId, auctionAdmin: caller?.role === 'admin' && auction?.createdBy === caller.id }),
      bids_next_before: history.next,
    };
  });

  app.get('/products/:id/bids', {
    onRequest: ctx.optionalCaller,
    config: ctx.publicReadLimit,
    schema: {
      tags: ['auctions'], security: [{}, { bearer: [] }],
      summary: 'A page of a lot’s history in its current auction, highest first: after `before` (the `next_before` of the page before), at most `limit` (1–100, default 50)',
      description: 'Public, as `GET /products/{id}`; entries as it shows them. Keyset paging: an entry keeps its place however many bids arrive meanwhile, so reading on from `next_before` lists each entry once.',
      params: IdParams,
      querystring: LotHistoryQuery,
      response: { 200: LotHistoryPage, ...errorResponses(400, 404, 429) },
    },
  }, async (req) => {
    const caller = req.caller;
    const after = lotHistoryKey(req.query.before);
    const limit = pageLimit(req.query.limit, LOT_HISTORY_PAGE);
    // A draft (in no auction) is its admin's alone, as on the lot page.
    const product = readableProduct(await reads.product(req.params.id, ctx.now()), caller);
    if (product.auctionId === null) return { bids: [], next_before: null };
    const [auction, page] = await Promise.all([reads.auction(product.auctionId), historyPage(reads, product.id, product.auctionId, after, limit)]);
    const viewer = { userId: caller?.role === 'user' ? caller.id : null, auctionAdmin: caller?.role === 'admin' && auction?.createdBy === caller.id };
    return { bids: presentLotHistory(page.rows, viewer), next_before: page.next };
  });
}
