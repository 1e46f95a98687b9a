/** Admin catalogue: products, auctions and settlement (DESIGN §3). Reads are open to every admin. */
import { Type } from 'typebox';
import {
  AdminAuction, AuctionSaved, CreateAuctionBody, CreateProductBody, IdParams, MessageBody, Product, ProductSaved,
  Settled, UpdateAuctionBody, UpdateProductBody, errorResponses, toRupees,
} from '@auction/shared';
import type { App, AppContext } from '../context.js';
import { createAuction, createProduct, deleteAuction, deleteProduct, settleAuction, updateAuction, updateProduct } from '../domain/catalogue.js';
import { AppError, unwrap } from '../errors.js';
import { presentAdminAuction, presentProduct } from '../presenters/catalogue.js';
import { getAuction, getProduct, listAuctions, productsOfAuction, unassignedProducts, auctionExists } from '../queries/auctions.js';
import { callerOf, dateTime } from './input.js';

export function catalogueRoutes(app: App, ctx: AppContext) {
  const { db, guard, events } = ctx;
  const tags = ['admin catalogue'];
  const security = [{ bearer: [] }];
  const auctionView = (id: string) => {
    const view = getAuction(db, id);
    if (!view) throw new AppError('NOT_FOUND', 'Auction not found');
    return presentAdminAuction(view, ctx.now());
  };
  const productView = (id: string) => presentProduct(getProduct(db, id)!);
  const productsOf = (id: string) => {
    if (!auctionExists(db, id)) throw new AppError('NOT_FOUND', 'Auction not found');
    return productsOfAuction(db, id).map(presentProduct);
  };

  app.post('/admin/product', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Create a product (unassigned)', body: CreateProductBody, response: { 201: ProductSaved, ...errorResponses(400, 401, 403, 409) } },
  }, async (req, reply) => {
    const { product } = unwrap(createProduct({ db, adminId: callerOf(req).id, input: req.body, now: ctx.now() }));
    return reply.code(201).send({ message: 'Product created', product: productView(product.id) });
  });

  app.put('/admin/product/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Edit a product (creator only)', params: IdParams, body: UpdateProductBody, response: { 200: ProductSaved, ...errorResponses(400, 401, 403, 404) } },
  }, async (req) => {
    const r = unwrap(updateProduct({ db, adminId: callerOf(req).id, productId: req.params.id, input: req.body, now: ctx.now() }));
    events.publish(r.events);
    return { message: 'Product updated', product: productView(r.product.id) };
  });

  app.delete('/admin/product/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Delete a product (creator only); a leading bid on it is refunded', params: IdParams, response: { 200: MessageBody, ...errorResponses(401, 403, 404, 409) } },
  }, async (req) => {
    const r = unwrap(deleteProduct({ db, adminId: callerOf(req).id, productId: req.params.id, now: ctx.now() }));
    events.publish(r.events);
    return { message: 'Deleted' };
  });

  app.get('/admin/products/unassigned', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'The caller’s products that are in no auction', response: { 200: Type.Array(Product), ...errorResponses(401, 403) } },
  }, async (req) => unassignedProducts(db, callerOf(req).id).map(presentProduct));

  app.post('/admin/auction', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Create an auction from the caller’s unassigned products', body: CreateAuctionBody, response: { 201: AuctionSaved, ...errorResponses(400, 401, 403, 409) } },
  }, async (req, reply) => {
    const { id, name, valid_until, product_ids } = req.body;
    const input = { id, name, validUntil: dateTime(valid_until, 'valid_until', ctx.config.timeZone), productIds: product_ids };
    const r = unwrap(createAuction({ db, adminId: callerOf(req).id, input, now: ctx.now() }));
    events.publish(r.events);
    return reply.code(201).send({ message: 'Auction created successfully!', auction: auctionView(r.auction.id) });
  });

  app.put('/admin/auction/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Edit an auction (creator only)', params: IdParams, body: UpdateAuctionBody, response: { 200: AuctionSaved, ...errorResponses(400, 401, 403, 404, 409) } },
  }, async (req) => {
    const { name, valid_until, product_ids } = req.body;
    const input = { name, validUntil: dateTime(valid_until, 'valid_until', ctx.config.timeZone), ...(product_ids ? { productIds: product_ids } : {}) };
    const r = unwrap(updateAuction({ db, adminId: callerOf(req).id, auctionId: req.params.id, input, now: ctx.now() }));
    events.publish(r.events);
    return { message: 'Auction updated successfully!', auction: auctionView(r.auction.id) };
  });

  app.delete('/admin/auction/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Delete an unsettled auction (creator only); every hold is refunded', params: IdParams, response: { 200: MessageBody, ...errorResponses(401, 403, 404, 409) } },
  }, async (req) => {
    const r = unwrap(deleteAuction({ db, adminId: callerOf(req).id, auctionId: req.params.id, now: ctx.now() }));
    events.publish(r.events);
    return { message: 'Auction deleted successfully!' };
  });

  app.post('/admin/auction/:id/settle', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Settle an auction now (creator only): leading bids win', params: IdParams, response: { 200: Settled, ...errorResponses(401, 403, 404, 409) } },
  }, async (req) => {
    const r = unwrap(settleAuction({ db, auctionId: req.params.id, adminId: callerOf(req).id, now: ctx.now() }));
    events.publish(r.events);
    return {
      message: 'Auction settled successfully!',
      sold: r.sold.map((s) => ({ product_id: s.productId, amount: toRupees(s.amount) })),
      unsold: r.unsold,
    };
  });

  app.get('/admin/auction/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'One auction (any admin may read it)', params: IdParams, response: { 200: AdminAuction, ...errorResponses(401, 403, 404) } },
  }, async (req) => auctionView(req.params.id));

  app.get('/admin/all_auctions', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Every admin’s auctions', response: { 200: Type.Object({ auctions: Type.Array(AdminAuction) }), ...errorResponses(401, 403) } },
  }, async () => ({ auctions: listAuctions(db).map((a) => presentAdminAuction(a, ctx.now())) }));

  app.get('/admin/auctions/my', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'The caller’s auctions', response: { 200: Type.Array(AdminAuction), ...errorResponses(401, 403) } },
  }, async (req) => listAuctions(db, { createdBy: callerOf(req).id }).map((a) => presentAdminAuction(a, ctx.now())));

  app.get('/admin/auction_products/:id', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Products of an auction, wrapped', params: IdParams, response: { 200: Type.Object({ products: Type.Array(Product) }), ...errorResponses(401, 403, 404) } },
  }, async (req) => ({ products: productsOf(req.params.id) }));

  app.get('/admin/auction/:id/products', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Products of an auction', params: IdParams, response: { 200: Type.Array(Product), ...errorResponses(401, 403, 404) } },
  }, async (req) => productsOf(req.params.id));
}
