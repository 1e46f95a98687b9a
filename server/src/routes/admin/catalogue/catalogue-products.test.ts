/**
 * Admin catalogue API, products: create, edit, delete and the unassigned list.
 * Shared setup (a fresh app per test on a clock the test moves) in test/catalogue-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { balanceOf, call, createProducts, expectError, expectMoneyInvariant, richBidder, signUpAdmin, signUpUser } from '../../../test/helpers.js';
import {
  type ProductJson, adminAuction, adminProducts, app, bidsOf, byId, get, inHours, newAuction, placeBid, productJson, raw, sortedIds,
  transactionsOf, unassigned, withApp,
} from '../../../test/catalogue-helpers.js';

describe('products: POST /api/admin/product, PUT/DELETE /api/admin/product/{id}, GET /api/admin/products/unassigned', () => {
  withApp();

  it('creates an unassigned product (201) listed as unassigned for its creator only; unknown fields are ignored', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const res = await call(app, 'POST', '/api/admin/product', {
      id: 'Vase_01.a-b', name: 'Ming vase', description: 'Blue and white porcelain', status: 'sold', auction_id: 'X', highest_bid: 99, created_by: other.admin.id,
    }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    const product = {
      id: 'Vase_01.a-b', name: 'Ming vase', description: 'Blue and white porcelain', status: 'available', auction_id: null, highest_bid: 0, bid_count: 0, version: 0,
      // No pricing given: no starting price, reserve or buy-now price; the first bid must be at least ₹1; the creator sees the (absent) reserve.
      starting_price: 0, min_next_bid: 1, reserve_met: null, buy_now_price: null, my_status: null, my_max: null, reserve_price: null, winner: null, images: [], category: null, lot_number: null,
      // No premium and no GST: a win costs the bid itself (docs/money.md#all-in-prices).
      min_next_bid_all_in: 1, gst_pct: 0, buyer_premium_pct: 0, premium_gst_pct: 18,
    };
    expect(res.json()).toEqual({ message: 'Product created', product });
    expect(await unassigned(admin.token)).toEqual([product]);
    expect(await unassigned(other.token)).toEqual([]);
    // Only the creator may use it in an auction.
    const foreign = await call(app, 'POST', '/api/admin/auction', { id: 'A1', name: 'A', valid_until: inHours(2), product_ids: ['Vase_01.a-b'] }, other.token);
    expect(expectError(foreign, 409, 'PRODUCT_NOT_AVAILABLE').field).toBe('product_ids');
  });

  it('accepts the limits exactly: a 64-character id, a 120-character name, a 2,000-character description', async () => {
    const admin = await signUpAdmin(app);
    const body = { id: 'i'.repeat(64), name: 'n'.repeat(120), description: 'd'.repeat(2000) };
    const res = await call(app, 'POST', '/api/admin/product', body, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().product).toMatchObject(body);
  });

  it('409 ID_TAKEN for a duplicate id, from the same or another admin, and for the id of a deleted product', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const [p] = await createProducts(app, admin.token, 1);
    for (const token of [admin.token, other.token]) {
      const res = await call(app, 'POST', '/api/admin/product', { id: p, name: 'Impostor', description: 'Same id' }, token);
      expect(expectError(res, 409, 'ID_TAKEN').field).toBe('id');
    }
    expect(await unassigned(admin.token)).toEqual([productJson(p!)]);
    expect(await unassigned(other.token)).toEqual([]);

    expect((await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, admin.token)).statusCode).toBe(200);
    const again = await call(app, 'POST', '/api/admin/product', { id: p, name: 'Reborn', description: 'After delete' }, admin.token);
    expect(expectError(again, 409, 'ID_TAKEN').field).toBe('id');
    expect(await unassigned(admin.token)).toEqual([]);
  });

  it('PUT edits name and description (200) for the creator; the id in the body is ignored; the auction lists show the change', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const res = await call(app, 'PUT', `/api/admin/product/${p}`, { id: 'hijack', name: 'Renamed', description: 'New words' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const product = productJson(p!, { name: 'Renamed', description: 'New words', auction_id: auctionId });
    expect(res.json()).toEqual({ message: 'Product updated', product });
    expect(await adminProducts(auctionId, admin.token)).toEqual([product]);
    expectError(await call(app, 'PUT', '/api/admin/product/hijack', { name: 'x', description: 'y' }, admin.token), 404, 'NOT_FOUND');
  });

  it('PUT/DELETE by another admin is 403 FORBIDDEN and changes nothing; unknown or deleted ids are 404 NOT_FOUND', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const [p, q] = await createProducts(app, admin.token, 2);
    expectError(await call(app, 'PUT', `/api/admin/product/${p}`, { name: 'Mine now', description: 'Taken' }, other.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, other.token), 403, 'FORBIDDEN');
    expect(sortedIds(await unassigned(admin.token))).toEqual([p, q].sort());
    expect(byId(await unassigned(admin.token))[p!]).toEqual(productJson(p!));

    expectError(await call(app, 'PUT', '/api/admin/product/no-such-product', { name: 'a', description: 'b' }, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', '/api/admin/product/no-such-product', undefined, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', '/api/admin/product/no%20such', undefined, admin.token), 404, 'NOT_FOUND');

    expect((await call(app, 'DELETE', `/api/admin/product/${q}`, undefined, admin.token)).json()).toEqual({ message: 'Deleted' });
    expectError(await call(app, 'DELETE', `/api/admin/product/${q}`, undefined, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'PUT', `/api/admin/product/${q}`, { name: 'Back', description: 'Again' }, admin.token), 404, 'NOT_FOUND');
  });

  it('DELETE (200) removes a product from every list, with or without a JSON content type and an empty body', async () => {
    const admin = await signUpAdmin(app);
    const user = await signUpUser(app);
    const { auctionId, productIds: [p, q] } = await newAuction(admin.token, { products: 2 });
    const [u] = await createProducts(app, admin.token, 1);

    const res = await raw('DELETE', `/api/admin/product/${p}`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Deleted' });
    expect((await raw('DELETE', `/api/admin/product/${u}`, admin.token, '')).statusCode).toBe(200);

    const auction = await adminAuction(auctionId, admin.token);
    expect(auction.product_ids).toEqual([q]);
    expect(auction.product_count).toBe(1);
    expect((await adminProducts(auctionId, admin.token)).map((x) => x.id)).toEqual([q]);
    expect((await get(`/api/admin/auction_products/${auctionId}`, admin.token)).json().products.map((x: ProductJson) => x.id)).toEqual([q]);
    expect((await get(`/api/auctions/${auctionId}/products`, user.token)).json().map((x: ProductJson) => x.id)).toEqual([q]);
    const listed = (await get('/api/auctions', user.token)).json<{ id: string; product_ids: string[]; product_count: number }[]>();
    expect(listed.find((a) => a.id === auctionId)).toMatchObject({ product_ids: [q], product_count: 1 });
    expect(await unassigned(admin.token)).toEqual([]);
    const report = (await get('/api/admin/reports', admin.token)).json<{ products: { id: string }[] }>();
    expect(report.products.map((x) => x.id)).toEqual([q]);
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ total_products: 1, unassigned_products: 0 });
  });

  it('DELETE of a product holding a leading bid refunds that hold (rolledback, refund row with notes); others keep theirs', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q] } = await newAuction(admin.token, { products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const outbid = await placeBid(asha.token, p!, 300);
    const leading = await placeBid(ravi.token, p!, 450);
    await placeBid(asha.token, q!, 200);
    expect(await balanceOf(app, ravi.token)).toBe(550);

    expect((await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, admin.token)).json()).toEqual({ message: 'Deleted' });

    expect(await balanceOf(app, ravi.token)).toBe(1000);
    expect(await balanceOf(app, asha.token)).toBe(800);
    const [refund] = await transactionsOf(ravi.token);
    expect(refund).toMatchObject({ type: 'refund', amount: 450, meta: { product_id: p } });
    expect(refund!.meta.notes).toEqual(expect.stringContaining(`Product ${p}`));
    // The bids stay readable; the leading one is now cancelled, the outbid one untouched.
    expect((await bidsOf(ravi.token)).map((b) => [b.bid_id, b.state])).toEqual([[leading.bid_id, 'rolledback']]);
    expect((await bidsOf(asha.token)).map((b) => [b.bid_id, b.state])).toEqual([[expect.any(Number), 'success'], [outbid.bid_id, 'outbid']]);
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ pending: 200, revenue: 0 });
    expect((await adminProducts(auctionId, admin.token)).map((x) => [x.id, x.highest_bid])).toEqual([[q, 200]]);
    await expectMoneyInvariant(app);
  });

  it('DELETE or PUT of a sold product is 409 PRODUCT_SOLD: it stays sold, listed and described as bought; the ledger names what was bid on', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, p!, 700);
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);

    expectError(await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, admin.token), 409, 'PRODUCT_SOLD');
    expectError(await call(app, 'PUT', `/api/admin/product/${p}`, { name: 'Something else', description: 'Not what was sold' }, admin.token), 409, 'PRODUCT_SOLD');
    const won = (await call(app, 'GET', '/api/user-bids', undefined, asha.token)).json<{ product_name: string; status: string; state: string }[]>();
    expect(won).toEqual([expect.objectContaining({ product_name: `Product ${p}`, status: 'success', state: 'won' })]);
    const holds = (await call(app, 'GET', '/api/wallet/transactions', undefined, asha.token)).json<{ transactions: { type: string; meta: { notes: string | null } }[] }>().transactions;
    // The hold, then the payment settling wrote (docs/money.md#ledger-kinds): both name the lot as it was sold.
    expect(holds.filter((t) => t.type === 'bid').map((t) => t.meta.notes)).toEqual([`Won Product ${p} for ₹700`, `Bid on Product ${p}`]);
    expect(await adminProducts(auctionId, admin.token)).toEqual([productJson(p!, { status: 'sold', auction_id: auctionId, highest_bid: 700, bid_count: 1 })]);
    expect(await balanceOf(app, asha.token)).toBe(300);
    await expectMoneyInvariant(app);
  });
});
