/** Admin catalogue: products, auctions and settlement; only the creating admin changes what they made. Reads are open to every admin. */
import { Type } from 'typebox';
import {
  AdminAuction, AuctionSaved, CreateAuctionBody, CreateProductBody, IdParams, MessageBody, Product, ProductSaved,
  Settled, UpdateAuctionBody, UpdateProductBody, errorResponses, premiumBpOf, tiersProblem,
} from '@auction/shared';
import type { App, AppContext } from '../../../context.js';
import { createAuction, createProduct, deleteAuction, deleteProduct, settleAuction, updateAuction, updateProduct } from '../../../domain/catalogue.js';
import { AppError, unwrap } from '../../../errors.js';
import { presentAdminAuction, presentProduct, presentSettlement } from '../../../presenters/catalogue.js';
import { callerOf, dateTime, paise } from '../../input.js';

/** Rupee prices from a product body, in paise; a field left out stays undefined (kept on an edit). */
export function pricingInput(body: { starting_price?: number; reserve_price?: number | null; buy_now_price?: number | null; gst_pct?: number }) {
  const price = (v: number | null | undefined, field: string) => (v === undefined || v === null ? v : paise(v, field));
  return {
    startingPrice: price(body.starting_price, 'starting_price') ?? undefined,
    reservePrice: price(body.reserve_price, 'reserve_price'),
    buyNowPrice: price(body.buy_now_price, 'buy_now_price'),
    gstPct: body.gst_pct,
  };
}

/** A buyer's premium in percent as basis points; more than 2 decimals is a 400. */
function premiumBp(pct: number | undefined): number | undefined {
  if (pct === undefined) return undefined;
  const bp = premiumBpOf(pct);
  if (Math.abs(bp - pct * 100) > 1e-6) throw new AppError('VALIDATION', 'buyer_premium_pct must be a percentage from 0 to 50 with at most 2 decimals', 'buyer_premium_pct');
  return bp;
}

/** Auction rules from a body, money in paise (left out: undefined, so defaults or current values apply). */
function rulesInput(body: Pick<CreateAuctionBody, 'increment_rule' | 'increment_amount' | 'increment_tiers' | 'cancel_policy' | 'soft_close_s' | 'max_extension_s' | 'buyer_premium_pct'>) {
  const tiers = body.increment_tiers?.map((t) => ({
    below: t.below === undefined || t.below === null ? null : paise(t.below, 'increment_tiers', 'increment_tiers: each "below" must have at most 2 decimals'),
    step: paise(t.step, 'increment_tiers', 'increment_tiers: each step must have at most 2 decimals'),
  }));
  const problem = tiers && tiersProblem(tiers);
  if (problem) throw new AppError('VALIDATION', problem, 'increment_tiers');
  return {
    incrementRule: body.increment_rule,
    incrementAmount: body.increment_amount === undefined ? undefined : paise(body.increment_amount, 'increment_amount'),
    incrementTiers: tiers, cancelPolicy: body.cancel_policy, softCloseS: body.soft_close_s, maxExtensionS: body.max_extension_s,
    buyerPremiumBp: premiumBp(body.buyer_premium_pct),
  };
}

export function catalogueRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['admin catalogue'];
  const security = [{ bearer: [] }];
  /** `sellerId`: the caller, who sees each bidder's count of cancels when the auction is theirs. */
  const auctionView = async (id: string, sellerId?: number) => {
    const view = await reads.auction(id);
    if (!view) throw new AppError('NOT_FOUND', 'Auction not found');
    const cancels = sellerId === view.createdBy ? await reads.bidderCancels(id) : undefined;
    return presentAdminAuction(view, ctx.now(), cancels);
  };
  const productView = async (id: string, adminId: number) => {
    const view = await reads.product(id, ctx.now());
    if (!view) throw new AppError('NOT_FOUND', 'Product not found');
    return presentProduct(view, { adminId });
  };
  const productsOf = async (id: string, adminId: number) => {
    if (!(await reads.auctionExists(id))) throw new AppError('NOT_FOUND', 'Auction not found');
    return (await reads.productsOfAuction(id, ctx.now())).map((p) => presentProduct(p, { adminId }));
  };

  app.post('/admin/product', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Create a product (unassigned)', body: CreateProductBody, response: { 201: ProductSaved, ...errorResponses(400, 401, 403, 409) } },
  }, async (req, reply) => {
    const cmd = { adminId: callerOf(req).id, input: { ...req.body, ...pricingInput(req.body), categoryId: req.body.category_id } };
    const { product } = unwrap(await commands.run((tx) => createProduct(tx, cmd, ctx.now())));
    return reply.code(201).send({ message: 'Product created', product: await productView(product.id, cmd.adminId) });
  });

  app.put('/admin/product/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Edit a product (creator only); prices are frozen once it has a bid', params: IdParams, body: UpdateProductBody, response: { 200: ProductSaved, ...errorResponses(400, 401, 403, 404, 409) } },
  }, async (req) => {
    const cmd = { adminId: callerOf(req).id, productId: req.params.id, input: { ...req.body, ...pricingInput(req.body), categoryId: req.body.category_id } };
    const r = unwrap(await commands.run((tx) => updateProduct(tx, cmd, ctx.now())));
    return { message: 'Product updated', product: await productView(r.productId, cmd.adminId) };
  });

  app.delete('/admin/product/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Delete a product (creator only); a leading bid on it is refunded', params: IdParams, response: { 200: MessageBody, ...errorResponses(401, 403, 404, 409) } },
  }, async (req) => {
    const cmd = { adminId: callerOf(req).id, productId: req.params.id };
    unwrap(await commands.run((tx) => deleteProduct(tx, cmd, ctx.now())));
    return { message: 'Deleted' };
  });

  app.get('/admin/products/unassigned', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'The caller’s products that are in no auction', response: { 200: Type.Array(Product), ...errorResponses(401, 403) } },
  }, async (req) => {
    const adminId = callerOf(req).id;
    return (await reads.unassignedProducts(adminId, ctx.now())).map((p) => presentProduct(p, { adminId }));
  });

  app.post('/admin/auction', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Create an auction from the caller’s unassigned products', body: CreateAuctionBody, response: { 201: AuctionSaved, ...errorResponses(400, 401, 403, 409) } },
  }, async (req, reply) => {
    const { id, name, valid_until, product_ids } = req.body;
    const input = { id, name, validUntil: dateTime(valid_until, 'valid_until', ctx.config.timeZone), productIds: product_ids, ...rulesInput(req.body) };
    const adminId = callerOf(req).id;
    const defaults = { softCloseS: ctx.config.softCloseS, maxExtensionS: ctx.config.maxExtensionS, premiumGstPct: ctx.config.premiumGstPct };
    const r = unwrap(await commands.run((tx) => createAuction(tx, { adminId, input, defaults }, ctx.now())));
    return reply.code(201).send({ message: 'Auction created successfully!', auction: await auctionView(r.auction.id, adminId) });
  });

  app.put('/admin/auction/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Edit an auction (creator only)', params: IdParams, body: UpdateAuctionBody, response: { 200: AuctionSaved, ...errorResponses(400, 401, 403, 404, 409) } },
  }, async (req) => {
    const { name, valid_until, product_ids } = req.body;
    const input = { name, validUntil: dateTime(valid_until, 'valid_until', ctx.config.timeZone), ...(product_ids ? { productIds: product_ids } : {}), ...rulesInput(req.body) };
    const cmd = { adminId: callerOf(req).id, auctionId: req.params.id, input: { ...input, premiumGstPct: ctx.config.premiumGstPct } };
    const r = unwrap(await commands.run((tx) => updateAuction(tx, cmd, ctx.now())));
    return { message: 'Auction updated successfully!', auction: await auctionView(r.auctionId, cmd.adminId) };
  });

  app.delete('/admin/auction/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Delete an unsettled auction (creator only); every hold is refunded', params: IdParams, response: { 200: MessageBody, ...errorResponses(401, 403, 404, 409) } },
  }, async (req) => {
    const cmd = { adminId: callerOf(req).id, auctionId: req.params.id };
    unwrap(await commands.run((tx) => deleteAuction(tx, cmd, ctx.now())));
    return { message: 'Auction deleted successfully!' };
  });

  app.post('/admin/auction/:id/settle', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Settle an auction now (creator only): leading bids at or above the reserve win', params: IdParams, response: { 200: Settled, ...errorResponses(401, 403, 404, 409) } },
  }, async (req) => {
    const cmd = { auctionId: req.params.id, adminId: callerOf(req).id };
    const r = unwrap(await commands.run((tx) => settleAuction(tx, cmd, ctx.now)));
    return { message: 'Auction settled successfully!', ...presentSettlement(r) };
  });

  app.get('/admin/auction/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'One auction (any admin may read it); its creator also sees each bidder’s count of cancelled bids', params: IdParams, response: { 200: AdminAuction, ...errorResponses(401, 403, 404) } },
  }, async (req) => auctionView(req.params.id, callerOf(req).id));

  app.get('/admin/all_auctions', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Every admin’s auctions', response: { 200: Type.Object({ auctions: Type.Array(AdminAuction) }), ...errorResponses(401, 403) } },
  }, async () => {
    const now = ctx.now();
    return { auctions: (await reads.auctions()).map((a) => presentAdminAuction(a, now)) };
  });

  app.get('/admin/auctions/my', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'The caller’s auctions', response: { 200: Type.Array(AdminAuction), ...errorResponses(401, 403) } },
  }, async (req) => {
    const now = ctx.now();
    return (await reads.auctions({ createdBy: callerOf(req).id })).map((a) => presentAdminAuction(a, now));
  });

  app.get('/admin/auction_products/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Products of an auction, wrapped', params: IdParams, response: { 200: Type.Object({ products: Type.Array(Product) }), ...errorResponses(401, 403, 404) } },
  }, async (req) => ({ products: await productsOf(req.params.id, callerOf(req).id) }));

  app.get('/admin/auction/:id/products', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Products of an auction', params: IdParams, response: { 200: Type.Array(Product), ...errorResponses(401, 403, 404) } },
  }, async (req) => productsOf(req.params.id, callerOf(req).id));
}
