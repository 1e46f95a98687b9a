/** Bids: place, cancel, and the lists and figures around them. */
import { Type } from 'typebox';
import { BidPlaced, BoughtNow, BuyNowBody, HighestBid, IdParams, PAGE_DEFAULT, PlaceBidBody, ProductBid, ProductBidsQuery, ProductKeyQuery, RollbackBody, RolledBack, TimeLeft, UserBid, WHOLE_LIST_MAX, errorResponses, toRupees } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { submitBid, submitBuyNow } from '../../domain/bidding.js';
import { bidCommandOf } from './bid-input.js';
import { cancelBid } from '../../domain/cancelling.js';
import { AppError, unwrap } from '../../errors.js';
import { presentListedBid, presentProductBid, presentUserBid } from '../../presenters/bids.js';
import { presentTimeLeft } from '../../presenters/catalogue.js';
import { assertNamesCaller, beforeId, callerOf, pageLimit, readableProduct } from '../input.js';
import type { Caller } from '../../domain/accounts.js';

export function biddingRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['bids'];
  const security = [{ bearer: [] }];
  const bidLimit = ctx.userLimit('bid');

  app.post('/bid', {
    onRequest: guard.user,
    config: bidLimit,
    schema: { tags, security, summary: 'Place a bid, or a maximum the server bids up to for you (escrow: the leading bid holds its amount, a maximum holds all of it)', body: PlaceBidBody, response: { 201: BidPlaced, ...errorResponses(400, 401, 402, 403, 404, 409, 429) } },
  }, async (req, reply) => {
    const cmd = bidCommandOf(callerOf(req), req.body);
    const now = ctx.now();
    const started = performance.now();
    let result;
    try {
      result = await submitBid(commands, cmd, now);
    } finally {
      // Failed ones too (the store busy or unreachable): they are the slowest.
      ctx.metrics.bidDuration.observe((performance.now() - started) / 1000);
    }
    const r = unwrap(result);
    return reply.code(201).send({
      message: r.leading ? 'Bid placed successfully!' : 'You were outbid by an automatic bid',
      bid: presentUserBid({ ...r.bid, productName: r.productName, auctionName: r.auctionName }),
      highest_bid: toRupees(r.highest),
      wallet_balance: toRupees(r.balance),
      version: r.version,
      leading: r.leading,
      max_amount: r.max === null ? null : toRupees(r.max),
      min_next_bid: toRupees(r.minNext),
      min_next_bid_all_in: toRupees(r.minNextAllIn),
    });
  });

  app.post('/buy-now', {
    onRequest: guard.user,
    config: bidLimit,
    schema: {
      tags, security, summary: 'Buy a lot at once at its buy-now price (while it has no bid, or its reserve is not yet met)',
      body: BuyNowBody, response: { 201: BoughtNow, ...errorResponses(400, 401, 402, 403, 404, 409, 429) },
    },
  }, async (req, reply) => {
    const cmd = { userId: callerOf(req).id, productId: req.body.product_id };
    const now = ctx.now();
    const r = unwrap(await submitBuyNow(commands, cmd, now));
    return reply.code(201).send({
      message: `You bought ${r.productName}!`,
      bid: presentUserBid({ ...r.bid, productName: r.productName, auctionName: r.auctionName }),
      wallet_balance: toRupees(r.balance),
      version: r.version,
    });
  });

  app.post('/rollback-bid', {
    onRequest: guard.user,
    config: ctx.userLimit('cancel'),
    schema: { tags, security, summary: 'Cancel your leading bid: refund, and the best covered earlier bid leads again', body: RollbackBody, response: { 200: RolledBack, ...errorResponses(400, 401, 403, 404, 409, 429) } },
  }, async (req) => {
    const me = callerOf(req);
    assertNamesCaller(me, req.body.username, req.body.user_id);
    const cmd = { userId: me.id, bidId: Number(req.body.bid_id) };
    const r = unwrap(await commands.run((tx) => cancelBid(tx, cmd, ctx.now())));
    return { message: 'Bid cancelled and amount refunded successfully!', wallet_balance: toRupees(r.balance), highest_bid: toRupees(r.highest) };
  });

  app.get('/user-bids', {
    onRequest: guard.user,
    schema: { tags, security, summary: `The caller’s bids, newest first (the newest ${WHOLE_LIST_MAX} at most)`, response: { 200: Type.Array(UserBid), ...errorResponses(401, 403) } },
  }, async (req) => {
    const now = ctx.now();
    return (await reads.userBids(callerOf(req).id)).map((b) => presentListedBid(b, now));
  });

  app.get('/user-bids/auction/:id', {
    onRequest: guard.user,
    schema: { tags, security, summary: `The caller’s bids in one auction, newest first (the newest ${WHOLE_LIST_MAX} at most)`, params: IdParams, response: { 200: Type.Array(UserBid), ...errorResponses(401, 403, 404) } },
  }, async (req) => {
    if (!(await reads.auctionExists(req.params.id, true))) throw new AppError('NOT_FOUND', 'Auction not found');
    const now = ctx.now();
    return (await reads.userBids(callerOf(req).id, req.params.id)).map((b) => presentListedBid(b, now));
  });

  const product = async (key: string, caller: Caller) => readableProduct(await reads.product(key), caller);

  app.get('/bids', {
    onRequest: guard.any,
    schema: {
      tags, security, querystring: ProductBidsQuery, response: { 200: Type.Array(ProductBid), ...errorResponses(400, 401, 404) },
      summary: 'A product’s bids, newest first (bidders masked except for the auction’s admin)',
      description: `Without \`limit\` and \`before\`, every bid (the newest ${WHOLE_LIST_MAX} at most), as the spec’s clients expect; with either, a page: at most \`limit\` (1–100, default ${PAGE_DEFAULT}), the next page \`before=\` the last \`bid_id\`.`,
    },
  }, async (req) => {
    const me = callerOf(req);
    const whole = req.query.limit === undefined && req.query.before === undefined;
    const page = { before: beforeId(req.query.before), limit: whole ? WHOLE_LIST_MAX : pageLimit(req.query.limit, PAGE_DEFAULT) };
    const p = await product(req.query.product_key, me);
    return (await reads.productBids(p.id, page)).map((b) => presentProductBid(b, me.role === 'admin' ? me.id : null));
  });

  app.get('/highest-bid', {
    onRequest: guard.any,
    schema: { tags, security, summary: 'A product’s highest bid (0 when none)', querystring: ProductKeyQuery, response: { 200: HighestBid, ...errorResponses(400, 401, 404) } },
  }, async (req) => ({ highest_bid: toRupees((await product(req.query.product_key, callerOf(req))).highest) }));

  app.get('/time-left', {
    onRequest: guard.any,
    schema: { tags, security, summary: 'Time left in the auction of a product', querystring: ProductKeyQuery, response: { 200: TimeLeft, ...errorResponses(400, 401, 404, 409) } },
  }, async (req) => {
    const t = readableProduct(await reads.productTiming(req.query.product_key), callerOf(req));
    if (t.auctionId === null || t.validUntil === null) throw new AppError('PRODUCT_NOT_AVAILABLE', 'This product is not in an auction');
    return presentTimeLeft({ ...t, auctionId: t.auctionId, validUntil: t.validUntil }, ctx.now());
  });
}
