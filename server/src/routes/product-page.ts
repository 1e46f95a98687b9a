/** The lot page (DESIGN §9.6): one product with its auction and its history, for any signed-in caller. */
import { IdParams, LotPage, errorResponses } from '@auction/shared';
import type { App, AppContext } from '../context.js';
import { presentAuction, presentProduct } from '../presenters/catalogue.js';
import { presentLotHistory } from '../presenters/photos.js';
import { callerOf, readableProduct } from './input.js';

export function productPageRoutes(app: App, ctx: AppContext) {
  const { reads, guard } = ctx;

  app.get('/products/:id', {
    onRequest: guard.any,
    schema: {
      tags: ['auctions'], security: [{ bearer: [] }],
      summary: 'A lot: the product (with the caller’s own standing), its auction and its history, highest first',
      description: 'Bidders appear as "Bidder n" (stable per lot), the caller as "You"; the auction’s own admin sees usernames. Automatic raises of maximum bids are entries with `auto: true`.',
      params: IdParams,
      response: { 200: LotPage, ...errorResponses(401, 404) },
    },
  }, async (req) => {
    const caller = callerOf(req);
    const now = ctx.now();
    const product = readableProduct(await reads.product(req.params.id, now), caller);
    const auctionId = product.auctionId;
    const [auction, history, standings] = await Promise.all([
      auctionId === null ? null : reads.auction(auctionId),
      auctionId === null ? [] : reads.lotHistory(product.id, auctionId),
      auctionId !== null && caller.role === 'user' ? reads.myStandings(caller.id, auctionId) : [],
    ]);
    const userId = caller.role === 'user' ? caller.id : null;
    const viewer = caller.role === 'admin' ? { adminId: caller.id } : { standing: standings.find((s) => s.productId === product.id) ?? null };
    return {
      ...presentProduct(product, viewer),
      auction: auction ? presentAuction(auction, userId, now) : null,
      bids: presentLotHistory(history, { userId, auctionAdmin: caller.role === 'admin' && auction?.createdBy === caller.id }),
    };
  });
}
