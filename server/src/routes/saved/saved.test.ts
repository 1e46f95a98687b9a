/**
 * Saved lots (docs/notifications.md#saved-lots) through the HTTP API on both stores: save and unsave are idempotent (204),
 * an unknown or deleted product is 404, admins are refused, `GET /api/saved` lists product shapes with
 * the caller's standing, and product lists carry `saved` for a bidder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { bid, call, createAuction, createProducts, expectError, makeApp, richBidder, signUpAdmin } from '../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

interface ProductJson { id: string; auction_id: string | null; highest_bid: number; my_status: string | null; saved?: boolean; images: unknown[] }

describe('saved lots', () => {
  it('save and unsave: idempotent 204; unknown or deleted products 404; admins 403', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const asha = await richBidder(app, 100, [auctionId]);
    for (let i = 0; i < 2; i++) {
      const res = await call(app, 'PUT', `/api/saved/${p!}`, undefined, asha.token);
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
    }
    expect((await call(app, 'GET', '/api/saved', undefined, asha.token)).json<ProductJson[]>().map((x) => x.id)).toEqual([p]);
    for (let i = 0; i < 2; i++) expect((await call(app, 'DELETE', `/api/saved/${p!}`, undefined, asha.token)).statusCode).toBe(204);
    expect((await call(app, 'GET', '/api/saved', undefined, asha.token)).json()).toEqual([]);

    expectError(await call(app, 'PUT', '/api/saved/nope', undefined, asha.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', '/api/saved/nope', undefined, asha.token), 404, 'NOT_FOUND');
    const [gone] = await createProducts(app, admin.token, 1);
    expect((await call(app, 'DELETE', `/api/admin/product/${gone!}`, undefined, admin.token)).statusCode).toBe(200);
    expectError(await call(app, 'PUT', `/api/saved/${gone!}`, undefined, asha.token), 404, 'NOT_FOUND');
    // A draft (in no auction) is its admin's alone: it cannot be saved by guessing its id.
    const [draft] = await createProducts(app, admin.token, 1);
    expectError(await call(app, 'PUT', `/api/saved/${draft!}`, undefined, asha.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'PUT', `/api/saved/${p!}`, undefined, admin.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'GET', '/api/saved', undefined, admin.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'DELETE', `/api/saved/${p!}`, undefined, undefined), 401, 'UNAUTHENTICATED');
  });

  it('GET /api/saved: product shapes, the most recently saved first, with the caller’s standing and saved: true; a deleted lot leaves the list', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const one = await createAuction(app, admin.token, { products: 2 });
    const two = await createAuction(app, admin.token);
    const asha = await richBidder(app, 1000, [one.auctionId, two.auctionId]);
    const ravi = await richBidder(app, 1000, [one.auctionId]);
    const [a, b] = one.productIds;
    const c = two.productIds[0]!;
    expect((await bid(app, asha.token, a!, 100)).statusCode).toBe(201);
    expect((await bid(app, asha.token, b!, 100)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, b!, 150)).statusCode).toBe(201);
    for (const id of [a!, c, b!]) {
      expect((await call(app, 'PUT', `/api/saved/${id}`, undefined, asha.token)).statusCode).toBe(204);
      await new Promise((r) => setTimeout(r, 5));
    }
    const saved = (await call(app, 'GET', '/api/saved', undefined, asha.token)).json<ProductJson[]>();
    expect(saved.map((x) => [x.id, x.auction_id, x.highest_bid, x.my_status, x.saved])).toEqual([
      [b, one.auctionId, 150, 'outbid', true],
      [c, two.auctionId, 0, null, true],
      [a, one.auctionId, 100, 'leading', true],
    ]);
    expect(saved[0]).toEqual(expect.objectContaining({ images: [], min_next_bid: 151, version: expect.any(Number) }));
    // Ravi saved nothing; his list is his own.
    expect((await call(app, 'GET', '/api/saved', undefined, ravi.token)).json()).toEqual([]);
    // Deleting an auction returns its lots to their admin as drafts, which leave the list (only their
    // admin may read them) until listed again; the bidder may still forget one; a deleted lot is gone.
    expect((await call(app, 'DELETE', `/api/admin/auction/${two.auctionId}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/saved', undefined, asha.token)).json<ProductJson[]>().map((x) => x.id)).toEqual([b, a]);
    const relisted = await call(app, 'POST', '/api/admin/auction', { id: 'again', name: 'Again', valid_until: new Date(Date.now() + 3_600_000).toISOString(), product_ids: [c] }, admin.token);
    expect(relisted.statusCode, relisted.body).toBe(201);
    expect((await call(app, 'GET', '/api/saved', undefined, asha.token)).json<ProductJson[]>().map((x) => x.id)).toEqual([b, c, a]);
    expect((await call(app, 'DELETE', '/api/admin/auction/again', undefined, admin.token)).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/saved/${c}`, undefined, asha.token)).statusCode).toBe(204);
    expect((await call(app, 'PUT', `/api/saved/${a!}`, undefined, asha.token)).statusCode).toBe(204);
    expect((await call(app, 'DELETE', `/api/admin/product/${c}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await call(app, 'GET', '/api/saved', undefined, asha.token)).json<ProductJson[]>().map((x) => x.id)).toEqual([b, a]);
  });

  it('product lists carry saved for a bidder (false when not saved), and nothing for an admin', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [a, b] } = await createAuction(app, admin.token, { products: 2 });
    const asha = await richBidder(app, 100, [auctionId]);
    const ravi = await richBidder(app, 100, [auctionId]);
    expect((await call(app, 'PUT', `/api/saved/${b!}`, undefined, asha.token)).statusCode).toBe(204);
    const list = async (token: string) => (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, token)).json<ProductJson[]>();
    expect((await list(asha.token)).map((p) => [p.id, p.saved])).toEqual([[a, false], [b, true]]);
    expect((await list(ravi.token)).map((p) => [p.id, p.saved])).toEqual([[a, false], [b, false]]);
    expect((await list(admin.token)).every((p) => !('saved' in p))).toBe(true);
  });
});
