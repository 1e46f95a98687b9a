/**
 * Lot numbers (docs/catalogue.md#lot-numbers) through the HTTP API on both stores: 1, 2, 3 … in the
 * order an auction lists its lots, numbered afresh while it has no bid and stable once it has one; a
 * lot that leaves its auction loses its number.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../../context.js';
import { bid, call, createProducts, HOUR, makeApp, richBidder, signUpAdmin, uniqueName } from '../../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

interface ProductJson { id: string; lot_number: number | null }

describe('lot numbers', () => {
  it('numbers lots in listing order, afresh until the first bid, then keeps them', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const [a, b, c, d, e] = await createProducts(app, admin.token, 5);
    const auctionId = uniqueName('LN');
    const validUntil = new Date(Date.now() + 2 * HOUR).toISOString();
    const save = async (ids: string[], method: 'POST' | 'PUT' = 'PUT') => {
      const res = method === 'POST'
        ? await call(app, 'POST', '/api/admin/auction', { id: auctionId, name: 'Numbered', valid_until: validUntil, product_ids: ids }, admin.token)
        : await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Numbered', valid_until: validUntil, product_ids: ids }, admin.token);
      expect(res.statusCode, res.body).toBe(method === 'POST' ? 201 : 200);
    };
    const lots = async () => (await call(app, 'GET', `/api/admin/auction/${auctionId}/products`, undefined, admin.token)).json<ProductJson[]>().map((p) => [p.id, p.lot_number]);

    await save([c!, a!, b!], 'POST');
    expect(await lots()).toEqual([[a, 1], [b, 2], [c, 3]]);
    // No bid yet: a removal closes the gap.
    await save([a!, c!]);
    expect(await lots()).toEqual([[a, 1], [c, 2]]);
    const unassigned = (await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token)).json<ProductJson[]>();
    expect(unassigned.find((p) => p.id === b)?.lot_number).toBeNull();

    const bidder = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, bidder.token, c!, 10)).statusCode).toBe(201);
    // Once bid on, numbers stay: a lot added later comes after the highest, a removed one leaves a gap.
    await save([a!, c!, e!, d!]);
    expect(await lots()).toEqual([[a, 1], [c, 2], [d, 3], [e, 4]]);
    await save([c!, d!, e!]);
    expect(await lots()).toEqual([[c, 2], [d, 3], [e, 4]]);
    await save([c!, d!, e!, b!, a!]);
    // Several added at once are numbered in the order they were created.
    expect(await lots()).toEqual([[c, 2], [d, 3], [e, 4], [a, 5], [b, 6]]);
    // Deleting a lot leaves the others as they are.
    expect((await call(app, 'DELETE', `/api/admin/product/${d!}`, undefined, admin.token)).statusCode).toBe(200);
    expect(await lots()).toEqual([[c, 2], [e, 4], [a, 5], [b, 6]]);

    // Every product shape carries it: the lot page and the bidder's list.
    expect((await call(app, 'GET', `/api/products/${e!}`, undefined, bidder.token)).json<ProductJson>().lot_number).toBe(4);
    const listed = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, bidder.token)).json<ProductJson[]>();
    expect(listed.map((p) => p.lot_number)).toEqual([2, 4, 5, 6]);
    // The auction lists its products in lot order too.
    const auction = (await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json<{ product_ids: string[] }>();
    expect(auction.product_ids).toEqual([c, e, a, b]);
  });

  it('a deleted bid-less lot is closed up; a settled auction keeps its sold lots’ numbers', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const ids = await createProducts(app, admin.token, 3);
    const auctionId = uniqueName('LN');
    const res = await call(app, 'POST', '/api/admin/auction', { id: auctionId, name: 'N', valid_until: new Date(Date.now() + HOUR).toISOString(), product_ids: ids }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    expect((await call(app, 'DELETE', `/api/admin/product/${ids[0]!}`, undefined, admin.token)).statusCode).toBe(200);
    const lots = async () => (await call(app, 'GET', `/api/admin/auction/${auctionId}/products`, undefined, admin.token)).json<ProductJson[]>().map((p) => [p.id, p.lot_number]);
    expect(await lots()).toEqual([[ids[1], 1], [ids[2], 2]]);
    const bidder = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, bidder.token, ids[2]!, 10)).statusCode).toBe(201);
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    expect(await lots()).toEqual([[ids[2], 2]]);
    const back = (await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token)).json<ProductJson[]>();
    expect(back.find((p) => p.id === ids[1])?.lot_number).toBeNull();
  });
});
