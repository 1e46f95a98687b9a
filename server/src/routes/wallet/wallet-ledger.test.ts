/**
 * The wallet's ledger in a bidder's words (docs/money.md#ledger-kinds), through the HTTP API on both
 * stores: each row's kind (hold, release, payment, topup), a win with an unused maximum, a buy-now,
 * Total Spent counting payments only, and the money invariant after each step.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Transaction, Transactions } from '@auction/shared';
import type { App } from '../../context.js';
import { HOUR, balanceOf, bid, call, expectMoneyInvariant, makeApp, makeClock, richBidder, signUpAdmin, uniqueName } from '../../test/helpers.js';
import { iso } from '../../presenters/format.js';

let app: App;
afterEach(async () => { await app?.close(); });

async function lot(admin: { token: string }, now: number, o: { buyNow?: number; reserve?: number } = {}) {
  const productId = uniqueName('L');
  const created = await call(app, 'POST', '/api/admin/product', {
    id: productId, name: `Teak armchair ${productId}`, description: 'A lot', starting_price: 100,
    ...(o.buyNow !== undefined ? { buy_now_price: o.buyNow } : {}),
    ...(o.reserve !== undefined ? { reserve_price: o.reserve } : {}),
  }, admin.token);
  expect(created.statusCode, created.body).toBe(201);
  const auctionId = uniqueName('A');
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: auctionId, name: `Auction ${auctionId}`, valid_until: iso(now + 2 * HOUR), product_ids: [productId],
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  return { productId, auctionId, name: `Teak armchair ${productId}` };
}

async function ledger(token: string, query = ''): Promise<Transactions> {
  const res = await call(app, 'GET', `/api/wallet/transactions${query}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Transactions>();
}

/** Oldest first: [kind, type, amount, product name]. */
const rowsOf = (l: Transactions) => [...l.transactions].reverse().map((t: Transaction) => [t.kind, t.type, t.amount, t.meta.product_name]);

describe('wallet ledger kinds', () => {
  it('a bid holds, an outbid releases, a win with an unused maximum releases the hold and pays the price', async () => {
    const clock = makeClock();
    app = await makeApp({ autoSettle: false }, { now: clock.now });
    const admin = await signUpAdmin(app);
    const { productId, auctionId, name } = await lot(admin, clock.t);
    const asha = await richBidder(app, 10_000, [auctionId]);
    const ravi = await richBidder(app, 10_000, [auctionId]);

    expect((await bid(app, asha.token, productId, 1_000)).statusCode).toBe(201);
    expect((await call(app, 'POST', '/api/bid', { product_id: productId, max_amount: 8_000 }, ravi.token)).json()).toMatchObject({ leading: true, highest_bid: 1_001 });
    await expectMoneyInvariant(app);

    // Asha: added, held, released; nothing spent.
    const a = await ledger(asha.token);
    expect(rowsOf(a)).toEqual([['topup', 'topup', 10_000, null], ['hold', 'bid', 1_000, name], ['release', 'refund', 1_000, name]]);
    expect(a.totals).toEqual({ topup: 10_000, bid: 1_000, refund: 1_000, count: 3, spent: 0 });

    // Ravi's maximum holds ₹8,000; holds are not spending.
    expect((await ledger(ravi.token)).totals).toMatchObject({ bid: 8_000, refund: 0, spent: 0 });

    const settled = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(settled.json(), settled.body).toMatchObject({ sold: [{ product_id: productId, amount: 1_001 }] });
    const audit = await expectMoneyInvariant(app);
    expect(audit.paid).toBe(1_001_00);
    expect(audit.held).toBe(0);

    // Ravi: the hold of his maximum is released whole and the price paid, once: his balance is down by the price only.
    const r = await ledger(ravi.token);
    expect(rowsOf(r)).toEqual([['topup', 'topup', 10_000, null], ['hold', 'bid', 8_000, name], ['release', 'refund', 8_000, name], ['payment', 'bid', 1_001, name]]);
    expect(r.transactions[0]!.meta).toMatchObject({ buy_now: false, notes: expect.stringMatching(/^Won /) });
    expect(r.totals).toEqual({ topup: 10_000, bid: 9_001, refund: 8_000, count: 4, spent: 1_001 });
    expect(await balanceOf(app, ravi.token)).toBe(10_000 - 1_001);
    // The balance is still the signed sum of the rows.
    expect(r.totals.topup + r.totals.refund - r.totals.bid).toBe(await balanceOf(app, ravi.token));
  });

  it('a buy-now is a payment at once; the hold it displaces is released', async () => {
    // Buy-now stays open while the reserve is not met (docs/bidding.md#buy-now).
    const clock = makeClock();
    app = await makeApp({ autoSettle: false }, { now: clock.now });
    const admin = await signUpAdmin(app);
    const { productId, auctionId, name } = await lot(admin, clock.t, { buyNow: 5_000, reserve: 3_000 });
    const meera = await richBidder(app, 10_000, [auctionId]);

    expect((await bid(app, meera.token, productId, 200)).statusCode).toBe(201);
    const bought = await call(app, 'POST', '/api/buy-now', { product_id: productId }, meera.token);
    expect(bought.statusCode, bought.body).toBe(201);
    await expectMoneyInvariant(app);

    const m = await ledger(meera.token);
    expect(rowsOf(m)).toEqual([['topup', 'topup', 10_000, null], ['hold', 'bid', 200, name], ['release', 'refund', 200, name], ['payment', 'bid', 5_000, name]]);
    expect(m.transactions[0]!.meta.buy_now).toBe(true);
    expect(m.totals.spent).toBe(5_000);
    expect(await balanceOf(app, meera.token)).toBe(5_000);

    // Settling afterwards writes nothing for the lot already bought.
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    expect((await ledger(meera.token)).totals.count).toBe(4);
    await expectMoneyInvariant(app);

    // The lot's history says which entry was the purchase, after settlement too (the seller's feed reads it back).
    const history = await call(app, 'GET', `/api/products/${encodeURIComponent(productId)}/bids`, undefined, admin.token);
    expect(history.json<{ bids: { amount: number; state: string; buy_now: boolean }[] }>().bids.map((b) => [b.amount, b.state, b.buy_now]))
      .toEqual([[5_000, 'won', true], [200, 'outbid', false]]);
  });

  it('paging keeps every row’s kind and the whole ledger’s totals on every page', async () => {
    const clock = makeClock();
    app = await makeApp({ autoSettle: false }, { now: clock.now });
    const admin = await signUpAdmin(app);
    const { productId, auctionId } = await lot(admin, clock.t);
    const zoya = await richBidder(app, 10_000, [auctionId]);
    for (const amount of [300, 400, 500]) expect((await bid(app, zoya.token, productId, amount)).statusCode).toBe(201);
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);

    const whole = await ledger(zoya.token);
    const first = await ledger(zoya.token, '?limit=3');
    const second = await ledger(zoya.token, `?limit=3&before=${first.next_before}`);
    const third = await ledger(zoya.token, `?limit=3&before=${second.next_before}`);
    expect([...first.transactions, ...second.transactions, ...third.transactions]).toEqual(whole.transactions);
    expect(third.next_before).toBeNull();
    for (const page of [first, second, third]) expect(page.totals).toEqual(whole.totals);
    // Three holds, two released by the raises, the last released at the settlement; one payment.
    expect(whole.transactions.map((t) => t.kind)).toEqual(['payment', 'release', 'hold', 'release', 'hold', 'release', 'hold', 'topup']);
    expect(whole.totals.spent).toBe(500);
    await expectMoneyInvariant(app);
  });

  it('a top-up’s answer carries its kind', async () => {
    app = await makeApp({ autoSettle: false });
    const kabir = await richBidder(app, 0);
    const res = await call(app, 'POST', '/api/wallet/topup', { amount: 250 }, kabir.token);
    expect(res.json<{ transaction: Transaction }>().transaction).toMatchObject({ type: 'topup', kind: 'topup', amount: 250, meta: { buy_now: false } });
  });
});

describe('the admin’s products of an auction name a sold lot’s winner', () => {
  it('winner: the username for the owner, on sold lots only; never for another admin', async () => {
    const clock = makeClock();
    app = await makeApp({ autoSettle: false }, { now: clock.now });
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const won = await lot(admin, clock.t);
    const open = await lot(admin, clock.t);
    const asha = await richBidder(app, 10_000, [won.auctionId, open.auctionId]);
    expect((await bid(app, asha.token, won.productId, 300)).statusCode).toBe(201);
    expect((await bid(app, asha.token, open.productId, 300)).statusCode).toBe(201);
    expect((await call(app, 'POST', `/api/admin/auction/${won.auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);

    const products = async (auctionId: string, token: string) => (await call(app, 'GET', `/api/admin/auction/${auctionId}/products`, undefined, token)).json<{ id: string; winner?: string | null }[]>();
    expect((await products(won.auctionId, admin.token))[0]).toMatchObject({ id: won.productId, winner: asha.username });
    expect((await products(open.auctionId, admin.token))[0]).toMatchObject({ id: open.productId, winner: null });
    expect((await products(won.auctionId, other.token))[0]).not.toHaveProperty('winner');
  });
});
