/**
 * All-in prices through the HTTP API, on both stores (docs/money.md#all-in-prices): with a buyer's
 * premium of 12.5 % (18 % GST on it) and 5 % GST on the lot, ₹1,000 costs ₹1,197.50 in all. A lead holds
 * the all-in price of its top, through plain bids, maximums, raises, outbids, cancels and
 * reinstatements, buy-now and settlement; the terms are frozen once a lot leads; the money invariant
 * holds after every step.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allIn } from '@auction/shared';
import type { App } from '../../context.js';
import { balanceOf, bid, call, expectError, expectMoneyInvariant, makeApp, richBidder, signUpAdmin, uniqueName } from '../../test/helpers.js';

let app: App;
beforeEach(async () => { app = await makeApp(); });
afterEach(async () => { await app.close(); });

const TERMS = { premiumBp: 1250, premiumGstPct: 18, lotGstPct: 5 };
/** Rupees in all for a win at `rupees`, as the shared rule computes it. */
const inAll = (rupees: number) => allIn(Math.round(rupees * 100), TERMS).total / 100;

async function saleWithTerms(admin: { token: string }, product: Record<string, unknown> = {}) {
  const productId = uniqueName('P');
  const made = await call(app, 'POST', '/api/admin/product', { id: productId, name: 'Brass lamp', description: 'A lamp', gst_pct: 5, ...product }, admin.token);
  expect(made.statusCode, made.body).toBe(201);
  const auctionId = uniqueName('A');
  const validUntil = new Date(Date.now() + 2 * 3600_000).toISOString();
  const res = await call(app, 'POST', '/api/admin/auction', { id: auctionId, name: 'Lamps', valid_until: validUntil, product_ids: [productId], buyer_premium_pct: 12.5 }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toMatchObject({ auction: { buyer_premium_pct: 12.5, premium_gst_pct: 18 } });
  return { auctionId, productId, validUntil };
}

describe('all-in prices: a lead holds the price with premium and GST', () => {
  it('plain bids, an outbid, a maximum and its raise, a cancel and a reinstatement, then the win: each holds or pays its all-in price', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productId } = await saleWithTerms(admin);
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravi = await richBidder(app, 1198.7, [auctionId]);

    const lot = (await call(app, 'GET', `/api/products/${productId}`, undefined, asha.token)).json();
    expect(lot).toMatchObject({ gst_pct: 5, buyer_premium_pct: 12.5, premium_gst_pct: 18, min_next_bid: 1, min_next_bid_all_in: inAll(1) });

    const first = await bid(app, asha.token, productId, 1000);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ highest_bid: 1000, wallet_balance: 5000 - 1197.5, min_next_bid: 1001, min_next_bid_all_in: 1198.7 });
    await expectMoneyInvariant(app);

    // Ravi has exactly what ₹1,001 costs in all: enough. A rupee more in all is not.
    expectError(await bid(app, ravi.token, productId, 1002), 402, 'INSUFFICIENT_FUNDS');
    expect((await bid(app, ravi.token, productId, 1001)).json()).toMatchObject({ wallet_balance: 0, leading: true });
    expect(await balanceOf(app, asha.token)).toBe(5000);
    await expectMoneyInvariant(app);

    // Asha's maximum of ₹2,000 holds ₹2,395.00; raising it to ₹2,500 holds the difference.
    const proxy = await call(app, 'POST', '/api/bid', { product_id: productId, max_amount: 2000 }, asha.token);
    expect(proxy.json()).toMatchObject({ highest_bid: 1002, wallet_balance: 5000 - inAll(2000), leading: true });
    const raised = await call(app, 'POST', '/api/bid', { product_id: productId, max_amount: 2500 }, asha.token);
    expect(raised.json()).toMatchObject({ wallet_balance: 5000 - inAll(2500), max_amount: 2500 });
    expect(inAll(2500)).toBe(2993.75);
    await expectMoneyInvariant(app);

    // Asha cancels: all of her hold comes back, and Ravi (who can still pay ₹1,001 in all) leads again.
    const cancel = await call(app, 'POST', '/api/rollback-bid', { bid_id: proxy.json<{ bid: { bid_id: number } }>().bid.bid_id }, asha.token);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await balanceOf(app, asha.token)).toBe(5000);
    expect(await balanceOf(app, ravi.token)).toBe(0);
    await expectMoneyInvariant(app);

    const settled = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(settled.statusCode, settled.body).toBe(200);
    expect(await balanceOf(app, ravi.token)).toBe(0);
    const audit = await expectMoneyInvariant(app);
    expect(audit.paid).toBe(119_870);
    const notes = (await call(app, 'GET', '/api/wallet/transactions', undefined, ravi.token)).json<{ transactions: { meta: { notes: string } }[] }>().transactions.map((t) => t.meta.notes);
    expect(notes, JSON.stringify(notes)).toContain('Won Brass lamp for ₹1,001: ₹1,198.70 in all (premium and GST)');
  });

  it('a maximum reinstated by a cancel is lowered to the highest top its wallet can hold in all', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productId } = await saleWithTerms(admin);
    const ravi = await richBidder(app, 2395, [auctionId]);
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravisMax = await call(app, 'POST', '/api/bid', { product_id: productId, max_amount: 2000 }, ravi.token);
    expect(ravisMax.json()).toMatchObject({ wallet_balance: 0 });
    const ashas = await bid(app, asha.token, productId, 2100);
    expect(ashas.json()).toMatchObject({ leading: true });
    // Ravi spends part of what came back; Asha cancels: his maximum leads again, lowered to what ₹1,197.50 covers in all.
    expect(await balanceOf(app, ravi.token)).toBe(2395);
    await call(app, 'POST', '/api/wallet/topup', { amount: 10 }, ravi.token);
    const other = await saleWithTerms(admin);
    await call(app, 'POST', '/api/auctions/register', { auction_id: other.auctionId }, ravi.token);
    expect((await bid(app, ravi.token, other.productId, 1000)).json()).toMatchObject({ wallet_balance: 2405 - 1197.5 });
    const cancel = await call(app, 'POST', '/api/rollback-bid', { bid_id: ashas.json<{ bid: { bid_id: number } }>().bid.bid_id }, asha.token);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const lot = (await call(app, 'GET', `/api/products/${productId}`, undefined, ravi.token)).json<{ my_max: number; my_status: string }>();
    expect(lot.my_status).toBe('leading');
    expect(inAll(lot.my_max)).toBeLessThanOrEqual(1207.5);
    expect(inAll(lot.my_max + 0.01)).toBeGreaterThan(1207.5);
    await expectMoneyInvariant(app);
  });

  it('buy now pays the all-in buy-now price at once, and needs all of it', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productId } = await saleWithTerms(admin, { buy_now_price: 500 });
    const poor = await richBidder(app, 598, [auctionId]);
    const asha = await richBidder(app, 598.75, [auctionId]);
    expectError(await call(app, 'POST', '/api/buy-now', { product_id: productId }, poor.token), 402, 'INSUFFICIENT_FUNDS');
    const bought = await call(app, 'POST', '/api/buy-now', { product_id: productId }, asha.token);
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json()).toMatchObject({ wallet_balance: 0 });
    expect((await expectMoneyInvariant(app)).paid).toBe(59_875);
  });

  it('the terms are frozen while a lot leads: the premium and the lot’s GST', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productId, validUntil } = await saleWithTerms(admin);
    const edit = (pct: number) => call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Lamps', valid_until: validUntil, buyer_premium_pct: pct }, admin.token);
    const gst = (pct: number) => call(app, 'PUT', `/api/admin/product/${productId}`, { name: 'Brass lamp', description: 'A lamp', gst_pct: pct }, admin.token);
    expect(expectError(await edit(12.345), 400, 'VALIDATION').field).toBe('buyer_premium_pct');
    expectError(await edit(51), 400, 'VALIDATION');
    expectError(await gst(7), 400, 'VALIDATION');
    expect((await edit(10)).json()).toMatchObject({ auction: { buyer_premium_pct: 10 } });
    expect((await gst(12)).json()).toMatchObject({ product: { gst_pct: 12 } });
    const asha = await richBidder(app, 5000, [auctionId]);
    expect((await bid(app, asha.token, productId, 100)).statusCode).toBe(201);
    expect(expectError(await edit(15), 409, 'PRODUCT_HAS_BIDS').field).toBe('buyer_premium_pct');
    expect(expectError(await gst(18), 409, 'PRODUCT_HAS_BIDS').field).toBe('gst_pct');
    // The same terms again are no change.
    expect((await edit(10)).statusCode).toBe(200);
    // 10 % premium + 18 % GST on it + 12 % on the lot: ₹100 holds ₹123.80.
    expect(await balanceOf(app, asha.token)).toBe(5000 - 123.8);
    await expectMoneyInvariant(app);
  });
});
