/**
 * Admin catalogue API, settlement: the settle button.
 * Shared setup (a fresh app per test on a clock the test moves) in test/catalogue-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { balanceOf, call, createProducts, expectError, expectMoneyInvariant, HOUR, richBidder, signUpAdmin, signUpUser } from '../../../test/helpers.js';
import {
  type ProductJson, adminAuction, adminProducts, app, bidsOf, byId, clock, get, inHours, iso, newAuction, placeBid, productJson, raw, START,
  transactionsOf, unassigned, withApp,
} from '../../../test/catalogue-helpers.js';

describe('settle: POST /api/admin/auction/{id}/settle', () => {
  withApp();

  it('early settle: leading bids win, products sell, unsold ones return to unassigned, valid_until moves to now', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q, r] } = await newAuction(admin.token, { products: 3, endsIn: 5 * HOUR });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const ashaOnP = await placeBid(asha.token, p!, 300);
    const raviOnP = await placeBid(ravi.token, p!, 400.5);
    const ashaOnQ = await placeBid(asha.token, q!, 250);
    clock.advance(30 * 60_000);
    const settledAt = iso(clock.t);

    const res = await raw('POST', `/api/admin/auction/${auctionId}/settle`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; sold: { product_id: string; amount: number }[]; unsold: { id: string; reason: string }[] }>();
    expect(body.message).toBe('Auction settled successfully!');
    expect([...body.sold].sort((a, b) => a.product_id.localeCompare(b.product_id))).toEqual([{ product_id: p, amount: 400.5 }, { product_id: q, amount: 250 }]);
    expect(body.unsold).toEqual([{ id: r, reason: 'NO_BIDS' }]);

    const auction = await adminAuction(auctionId, admin.token);
    expect(auction).toMatchObject({ status: 'settled', settled_at: settledAt, valid_until: settledAt, product_count: 2 });
    expect([...auction.product_ids].sort()).toEqual([p!, q!].sort());
    const user = await signUpUser(app);
    // A bidder who never bid there: no standing of their own, and no reserve price shown.
    expect(byId((await get(`/api/auctions/${auctionId}/products`, user.token)).json<ProductJson[]>())).toEqual({
      [p!]: productJson(p!, { status: 'sold', auction_id: auctionId, highest_bid: 400.5, bid_count: 2, saved: false }, 'other'),
      [q!]: productJson(q!, { status: 'sold', auction_id: auctionId, highest_bid: 250, bid_count: 1, saved: false }, 'other'),
    });
    expect(await unassigned(admin.token)).toEqual([productJson(r!)]);
    expect((await bidsOf(asha.token)).map((b) => [b.bid_id, b.state])).toEqual([[ashaOnQ.bid_id, 'won'], [ashaOnP.bid_id, 'outbid']]);
    expect((await bidsOf(ravi.token)).map((b) => [b.bid_id, b.state])).toEqual([[raviOnP.bid_id, 'won']]);
    expect([await balanceOf(app, asha.token), await balanceOf(app, ravi.token)]).toEqual([750, 599.5]);
    // The hold is released and the price paid: two rows whose sum leaves the balance where the hold had it (docs/money.md#ledger-kinds).
    expect((await transactionsOf(ravi.token)).map((t) => [t.type, t.amount])).toEqual([['bid', 400.5], ['refund', 400.5], ['bid', 400.5], ['topup', 1000]]);
    const audit = await expectMoneyInvariant(app);
    expect([audit.held, audit.paid]).toEqual([0, 65050]);

    // The unsold product can go into a new auction.
    const again = await call(app, 'POST', '/api/admin/auction', { id: 'Second-chance', name: 'Again', valid_until: inHours(2), product_ids: [r] }, admin.token);
    expect(again.statusCode, again.body).toBe(201);
  });

  it('a second settle is 409 AUCTION_SETTLED and changes nothing; edits and deletes of a settled auction are 409 too', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q] } = await newAuction(admin.token, { products: 2 });
    const [spare] = await createProducts(app, admin.token, 1);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, p!, 600);
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).json())
      .toEqual({ message: 'Auction settled successfully!', sold: [{ product_id: p, amount: 600 }], unsold: [{ id: q, reason: 'NO_BIDS' }] });
    const snapshot = async () => ({
      auction: await adminAuction(auctionId, admin.token), products: await adminProducts(auctionId, admin.token),
      unassigned: await unassigned(admin.token), balance: await balanceOf(app, asha.token), bids: await bidsOf(asha.token),
      stats: (await get('/api/admin/stats', admin.token)).json(),
    });
    const before = await snapshot();
    clock.advance(HOUR);

    expectError(await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expectError(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Edited', valid_until: inHours(5) }, admin.token), 409, 'AUCTION_SETTLED');
    expectError(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Edited', valid_until: inHours(5), product_ids: [p, spare] }, admin.token), 409, 'AUCTION_SETTLED');
    expectError(await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expect(await snapshot()).toEqual(before);
    expect(before.stats).toMatchObject({ revenue: 600, pending: 0 });
    await expectMoneyInvariant(app);
  });

  it('settling after the end keeps valid_until; an auction without bids sells nothing', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token, { endsIn: HOUR });
    clock.advance(3 * HOUR);
    const res = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(res.json()).toEqual({ message: 'Auction settled successfully!', sold: [], unsold: [{ id: p, reason: 'NO_BIDS' }] });
    expect(await adminAuction(auctionId, admin.token)).toMatchObject({
      status: 'settled', valid_until: iso(START + HOUR), settled_at: iso(START + 3 * HOUR), product_ids: [], product_count: 0,
    });
    expect(await unassigned(admin.token)).toEqual([productJson(p!)]);
  });

  it('another admin gets 403 FORBIDDEN and nothing changes; unknown ids are 404 NOT_FOUND', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, p!, 100);
    const before = await adminAuction(auctionId, admin.token);
    expectError(await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, other.token), 403, 'FORBIDDEN');
    expect(await adminAuction(auctionId, admin.token)).toEqual(before);
    expect((await adminProducts(auctionId, admin.token))[0]).toMatchObject({ status: 'available', highest_bid: 100 });
    expect((await bidsOf(asha.token))[0]!.status).toBe('success');
    expectError(await call(app, 'POST', '/api/admin/auction/no-such-auction/settle', undefined, admin.token), 404, 'NOT_FOUND');
    await expectMoneyInvariant(app);
  });
});
