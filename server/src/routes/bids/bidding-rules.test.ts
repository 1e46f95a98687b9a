/**
 * Bidding as serious auction sites run it (docs/bidding.md), through the HTTP API on both stores: lot
 * pricing, increment rules, maximum (proxy) bids with the worked examples of the docs in exact amounts,
 * reserve, buy now, soft close; the money invariant after every scenario.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import {
  HOUR, balanceOf, bid, call, expectError, expectMoneyInvariant, makeApp, makeClock, richBidder, signUpAdmin, uniqueName,
} from '../../test/helpers.js';
import { iso } from '../../presenters/format.js';

let app: App;
let clock: ReturnType<typeof makeClock>;
afterEach(async () => { await app?.close(); });

async function start(overrides: Parameters<typeof makeApp>[0] = {}) {
  clock = makeClock();
  app = await makeApp({ autoSettle: false, ...overrides }, { now: clock.now });
  return signUpAdmin(app);
}

interface LotOptions { starting?: number; reserve?: number | null; buyNow?: number | null; rule?: 'flat' | 'ladder'; endsIn?: number; softClose?: number; maxExtension?: number }

/** One lot in its own auction. */
async function lot(admin: { token: string }, o: LotOptions = {}) {
  const productId = uniqueName('L');
  const created = await call(app, 'POST', '/api/admin/product', {
    id: productId, name: `Lot ${productId}`, description: 'A lot',
    ...(o.starting !== undefined ? { starting_price: o.starting } : {}),
    ...(o.reserve !== undefined ? { reserve_price: o.reserve } : {}),
    ...(o.buyNow !== undefined ? { buy_now_price: o.buyNow } : {}),
  }, admin.token);
  expect(created.statusCode, created.body).toBe(201);
  const auctionId = uniqueName('A');
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: auctionId, name: `Auction ${auctionId}`, valid_until: iso(clock.t + (o.endsIn ?? 2 * HOUR)), product_ids: [productId],
    ...(o.rule ? { increment_rule: o.rule } : {}),
    ...(o.softClose !== undefined ? { soft_close_s: o.softClose } : {}),
    ...(o.maxExtension !== undefined ? { max_extension_s: o.maxExtension } : {}),
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  return { productId, auctionId };
}

const proxy = (token: string, productId: string, max: number, amount?: number) =>
  call(app, 'POST', '/api/bid', { product_id: productId, max_amount: max, ...(amount !== undefined ? { bid_amount: amount } : {}) }, token);

interface ProductJson { id: string; highest_bid: number; min_next_bid: number; reserve_met: boolean | null; buy_now_price: number | null; my_status: string | null; my_max: number | null; reserve_price?: number | null; starting_price: number; status: string }

async function productAs(token: string, auctionId: string, productId: string): Promise<ProductJson> {
  const res = await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ProductJson[]>().find((p) => p.id === productId)!;
}

const myBids = async (token: string) => (await call(app, 'GET', '/api/user-bids', undefined, token)).json<{ amount: number; status: string; max_amount: number | null; reason: string | null; buy_now: boolean }[]>();
const ledger = async (token: string) => (await call(app, 'GET', '/api/wallet/transactions', undefined, token)).json<{ transactions: { type: string; kind: string; amount: number; meta: { notes: string | null } }[] }>().transactions;

describe('lot pricing', () => {
  it('starting, reserve and buy-now prices: checked, shown to the owner, secret from bidders, frozen once bid on', async () => {
    const admin = await start();
    const bad = (body: object) => call(app, 'POST', '/api/admin/product', { id: uniqueName('B'), name: 'X', description: 'Y', ...body }, admin.token);
    expectError(await bad({ starting_price: 100, reserve_price: 50 }), 400, 'VALIDATION');
    expectError(await bad({ starting_price: 100, buy_now_price: 100 }), 400, 'VALIDATION');
    expectError(await bad({ reserve_price: 500, buy_now_price: 400 }), 400, 'VALIDATION');
    expectError(await bad({ starting_price: 10.005 }), 400, 'VALIDATION');
    expectError(await bad({ starting_price: -1 }), 400, 'VALIDATION');

    const { productId, auctionId } = await lot(admin, { starting: 250, reserve: 1000, buyNow: 3000 });
    const owner = (await call(app, 'GET', `/api/admin/auction/${auctionId}/products`, undefined, admin.token)).json<ProductJson[]>()[0]!;
    expect(owner).toMatchObject({ starting_price: 250, reserve_price: 1000, buy_now_price: 3000, min_next_bid: 250, reserve_met: false, highest_bid: 0 });
    const other = await signUpAdmin(app);
    expect((await call(app, 'GET', `/api/admin/auction/${auctionId}/products`, undefined, other.token)).json<ProductJson[]>()[0]).not.toHaveProperty('reserve_price');

    const asha = await richBidder(app, 5000, [auctionId]);
    const seen = await productAs(asha.token, auctionId, productId);
    expect(seen).toMatchObject({ starting_price: 250, min_next_bid: 250, reserve_met: false, buy_now_price: 3000, my_status: null, my_max: null });
    expect(seen).not.toHaveProperty('reserve_price');

    expect(await bid(app, asha.token, productId, 249)).toMatchObject({ statusCode: 409 });
    expect((await bid(app, asha.token, productId, 249)).json().message).toBe('Bid must be at least ₹250');
    expect((await bid(app, asha.token, productId, 250)).statusCode).toBe(201);
    expect(await productAs(asha.token, auctionId, productId)).toMatchObject({ highest_bid: 250, min_next_bid: 251, reserve_met: false, buy_now_price: 3000, my_status: 'leading' });

    // Name and description may still change; prices may not.
    const edit = (body: object) => call(app, 'PUT', `/api/admin/product/${productId}`, { name: 'Renamed', description: 'Still a lot', ...body }, admin.token);
    expect((await edit({})).statusCode).toBe(200);
    expectError(await edit({ reserve_price: 500 }), 409, 'PRODUCT_HAS_BIDS');
    expectError(await edit({ starting_price: 10 }), 409, 'PRODUCT_HAS_BIDS');
    expect((await edit({ starting_price: 250, reserve_price: 1000, buy_now_price: 3000 })).statusCode).toBe(200);
    await expectMoneyInvariant(app);
  });

  it('an unbid lot can be repriced, and a price can be taken away with null', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { starting: 100, buyNow: 900 });
    const res = await call(app, 'PUT', `/api/admin/product/${productId}`, { name: 'Lot', description: 'A lot', starting_price: 50, buy_now_price: null }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().product).toMatchObject({ starting_price: 50, buy_now_price: null, reserve_price: null, min_next_bid: 50 });
    const asha = await richBidder(app, 100, [auctionId]);
    expect(await productAs(asha.token, auctionId, productId)).toMatchObject({ buy_now_price: null, reserve_met: null });
  });
});

describe('increment rules', () => {
  it('flat: ₹1 steps, the spec sentence at or below the highest', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [asha, ravi] = [await richBidder(app, 5000, [auctionId]), await richBidder(app, 5000, [auctionId])];
    expect((await bid(app, asha.token, productId, 560)).json()).toMatchObject({ highest_bid: 560, min_next_bid: 561, leading: true, max_amount: null });
    expect((await bid(app, ravi.token, productId, 560)).json().message).toBe('Bid must be higher than current highest bid of ₹560');
    expect((await bid(app, ravi.token, productId, 560.5)).json().message).toBe('Bid must be at least ₹561');
    expect((await bid(app, ravi.token, productId, 561)).statusCode).toBe(201);
  });

  it('ladder: the step follows the highest bid', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { rule: 'ladder' });
    const [asha, ravi] = [await richBidder(app, 200_000, [auctionId]), await richBidder(app, 200_000, [auctionId])];
    expect((await bid(app, asha.token, productId, 560)).json()).toMatchObject({ highest_bid: 560, min_next_bid: 570 });
    expect((await bid(app, ravi.token, productId, 569)).json()).toMatchObject({ code: 'BID_TOO_LOW', message: 'Bid must be at least ₹570' });
    expect((await bid(app, ravi.token, productId, 2470)).json()).toMatchObject({ min_next_bid: 2520 });
    expect((await bid(app, asha.token, productId, 99_990)).json()).toMatchObject({ min_next_bid: 1_00_490 });
    expect((await bid(app, ravi.token, productId, 1_00_490)).json()).toMatchObject({ min_next_bid: 1_01_490 });
    const auction = (await call(app, 'GET', '/api/auctions', undefined, asha.token)).json<{ id: string; increment_rule: string }[]>().find((a) => a.id === auctionId);
    expect(auction?.increment_rule).toBe('ladder');
  });

  it('the rule cannot change once a lot has a bid', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const edit = (rule: string) => call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'A', valid_until: iso(clock.t + HOUR), increment_rule: rule }, admin.token);
    expect((await edit('ladder')).json().auction.increment_rule).toBe('ladder');
    const asha = await richBidder(app, 100, [auctionId]);
    expect((await bid(app, asha.token, productId, 10)).statusCode).toBe(201);
    expectError(await edit('flat'), 409, 'PRODUCT_HAS_BIDS');
    expect((await edit('ladder')).statusCode).toBe(200);
  });
});

describe('maximum (proxy) bids: the worked examples of docs/bidding.md', () => {
  it('flat: a maximum holds all of itself, answers plain bids automatically, and loses to a higher maximum at one step above it', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { starting: 100 });
    const [asha, ravi, meera] = [await richBidder(app, 2000, [auctionId]), await richBidder(app, 2000, [auctionId]), await richBidder(app, 2000, [auctionId])];

    // Asha: up to ₹1,000. She leads at the starting price; all ₹1,000 is held.
    expect((await proxy(asha.token, productId, 1000)).json()).toMatchObject({ leading: true, highest_bid: 100, max_amount: 1000, min_next_bid: 101, wallet_balance: 1000 });
    expect(await productAs(asha.token, auctionId, productId)).toMatchObject({ my_status: 'leading', my_max: 1000, highest_bid: 100 });
    // The wallet shows what the maximum holds.
    expect((await call(app, 'POST', '/api/wallet', {}, asha.token)).json()).toEqual({ wallet_balance: 1000, on_hold: 1000 });

    // Ravi bids ₹300: Asha's maximum answers at once with ₹301. Ravi pays nothing.
    const r1 = await bid(app, ravi.token, productId, 300);
    expect(r1.statusCode).toBe(201);
    expect(r1.json()).toMatchObject({ leading: false, highest_bid: 301, message: 'You were outbid by an automatic bid', wallet_balance: 2000, bid: { status: 'failed', state: 'outbid', amount: 300 } });
    expect(await balanceOf(app, ravi.token)).toBe(2000);
    expect(await productAs(ravi.token, auctionId, productId)).toMatchObject({ my_status: 'outbid', highest_bid: 301, min_next_bid: 302 });

    // Ravi tries a maximum of ₹800: still below Asha's; she answers with ₹801.
    expect((await proxy(ravi.token, productId, 800)).json()).toMatchObject({ leading: false, highest_bid: 801 });

    // Meera sets ₹1,500: she beats Asha's ₹1,000 by one step and leads at ₹1,001. Asha gets all ₹1,000 back.
    expect((await proxy(meera.token, productId, 1500)).json()).toMatchObject({ leading: true, highest_bid: 1001, max_amount: 1500, wallet_balance: 500 });
    expect(await balanceOf(app, asha.token)).toBe(2000);
    expect(await productAs(asha.token, auctionId, productId)).toMatchObject({ my_status: 'outbid', my_max: null });
    // Asha's bid reached her maximum on the way.
    expect((await myBids(asha.token))[0]).toMatchObject({ state: 'outbid', amount: 1000, max_amount: 1000 });
    await expectMoneyInvariant(app);

    // Settled: Meera's ₹1,500 hold is released and she pays ₹1,001 (two rows, docs/money.md#ledger-kinds): the unused ₹499 is back.
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).json()).toMatchObject({ sold: [{ product_id: productId, amount: 1001 }], unsold: [] });
    expect(await balanceOf(app, meera.token)).toBe(999);
    expect((await ledger(meera.token)).slice(0, 2)).toMatchObject([
      { type: 'bid', kind: 'payment', amount: 1001, meta: { notes: expect.stringMatching(/^Won /) } },
      { type: 'refund', kind: 'release', amount: 1500 },
    ]);
    const audit = await expectMoneyInvariant(app);
    expect(audit.paid).toBe(1001_00);
  });

  it('ladder: the answer is one ladder step above the challenger, capped at the maximum', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { starting: 500, rule: 'ladder' });
    const [asha, ravi, meera] = [await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId])];
    expect((await proxy(asha.token, productId, 2000)).json()).toMatchObject({ highest_bid: 500, min_next_bid: 510 });
    // ₹1,200 + the ₹50 step at ₹1,200 = ₹1,250.
    expect((await bid(app, ravi.token, productId, 1200)).json()).toMatchObject({ leading: false, highest_bid: 1250, min_next_bid: 1300 });
    // ₹1,990 + ₹50 would pass Asha's ₹2,000: she answers with exactly her maximum.
    expect((await bid(app, ravi.token, productId, 1990)).json()).toMatchObject({ leading: false, highest_bid: 2000, min_next_bid: 2050 });
    // Meera's ₹5,000 beats ₹2,000 by one step: ₹2,050.
    expect((await proxy(meera.token, productId, 5000)).json()).toMatchObject({ leading: true, highest_bid: 2050, min_next_bid: 2100 });
    await expectMoneyInvariant(app);
  });

  it('equal maximums: the earlier one wins at that maximum', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [asha, ravi] = [await richBidder(app, 2000, [auctionId]), await richBidder(app, 2000, [auctionId])];
    expect((await proxy(asha.token, productId, 1000)).json()).toMatchObject({ leading: true, highest_bid: 1 });
    expect((await proxy(ravi.token, productId, 1000)).json()).toMatchObject({ leading: false, highest_bid: 1000 });
    expect(await productAs(asha.token, auctionId, productId)).toMatchObject({ my_status: 'leading', my_max: 1000, highest_bid: 1000 });
    await expectMoneyInvariant(app);
  });

  it('a leader raises their own maximum: the difference is held, the price stays; a lower one is refused', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [asha, ravi] = [await richBidder(app, 2000, [auctionId]), await richBidder(app, 2000, [auctionId])];
    await proxy(asha.token, productId, 500);
    await bid(app, ravi.token, productId, 200);
    const raised = await proxy(asha.token, productId, 1500);
    expect(raised.statusCode, raised.body).toBe(201);
    expect(raised.json()).toMatchObject({ leading: true, highest_bid: 201, max_amount: 1500, wallet_balance: 500 });
    expect((await ledger(asha.token))[0]).toMatchObject({ type: 'bid', amount: 1000 });
    expectError(await proxy(asha.token, productId, 1500), 409, 'BID_TOO_LOW');
    expect((await proxy(asha.token, productId, 3000)).json()).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    // A plain bid below one's own maximum would only lower the hold.
    expectError(await bid(app, asha.token, productId, 900), 409, 'BID_TOO_LOW');
    await expectMoneyInvariant(app);
  });

  it('a leader’s refused change to their own maximum is not a bid: nothing in the lot’s history or their bids hints at the maximum', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [asha, ravi] = [await richBidder(app, 2000, [auctionId]), await richBidder(app, 2000, [auctionId])];
    await proxy(asha.token, productId, 1500);
    await bid(app, ravi.token, productId, 200);
    const before = await myBids(asha.token);
    // Lowering the maximum, a plain bid it already covers, and a raise she cannot pay for.
    expectError(await proxy(asha.token, productId, 1200), 409, 'BID_TOO_LOW');
    expectError(await bid(app, asha.token, productId, 1400), 409, 'BID_TOO_LOW');
    expect((await proxy(asha.token, productId, 5000)).json()).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await myBids(asha.token)).toEqual(before);
    const history = (token: string) => call(app, 'GET', `/api/products/${productId}`, undefined, token);
    for (const token of [ravi.token, admin.token]) {
      const amounts = history(token).then((r) => r.json<{ bids: { amount: number; state: string }[] }>().bids.map((b) => `${b.state} ${b.amount}`));
      // Her maximum placed at ₹1 and raised automatically to ₹201, and Ravi's bid: nothing else.
      expect(await amounts).toEqual(['success 201', 'outbid 200', 'success 1']);
    }
    const spec = await call(app, 'GET', `/api/bids?product_key=${productId}`, undefined, ravi.token);
    expect(spec.json<{ amount: number; state: string }[]>().map((b) => `${b.state} ${b.amount}`)).toEqual(['outbid 200', 'success 201']);
    // A plain bid below the lot's minimum is still a bid, refused and recorded as any other.
    expectError(await bid(app, asha.token, productId, 150), 409, 'BID_TOO_LOW');
    expect((await myBids(asha.token))[0]).toMatchObject({ amount: 150, status: 'failed' });
  });

  it('bid_amount with max_amount starts there; a maximum below the minimum or below bid_amount is refused', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { starting: 100 });
    const asha = await richBidder(app, 2000, [auctionId]);
    expectError(await proxy(asha.token, productId, 99), 409, 'BID_TOO_LOW');
    expectError(await proxy(asha.token, productId, 500, 600), 400, 'VALIDATION');
    expectError(await call(app, 'POST', '/api/bid', { product_id: productId }, asha.token), 400, 'VALIDATION');
    expect((await proxy(asha.token, productId, 1000, 400)).json()).toMatchObject({ leading: true, highest_bid: 400, max_amount: 1000 });
    expect(await balanceOf(app, asha.token)).toBe(1000);
  });

  it('cancelling a leading maximum refunds all of it; the earlier maximum leads again as a maximum, at the price it had without the cancelled bid', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [asha, ravi] = [await richBidder(app, 3000, [auctionId]), await richBidder(app, 3000, [auctionId])];
    await proxy(asha.token, productId, 700);
    await proxy(ravi.token, productId, 2000);
    expect(await balanceOf(app, asha.token)).toBe(3000);
    const ravisLead = (await myBids(ravi.token))[0]!;
    const cancel = await call(app, 'POST', '/api/rollback-bid', { bid_id: (ravisLead as unknown as { bid_id: number }).bid_id }, ravi.token);
    expect(cancel.statusCode, cancel.body).toBe(200);
    // No other bid remains: Asha's maximum leads at the opening price again, holding all of itself.
    expect(cancel.json()).toMatchObject({ wallet_balance: 3000, highest_bid: 1 });
    expect(await balanceOf(app, asha.token)).toBe(2300);
    expect((await myBids(asha.token))[0]).toMatchObject({ status: 'success', amount: 1, max_amount: 700 });
    await expectMoneyInvariant(app);
  });
});

describe('reserve', () => {
  it('a lot that ends below its reserve is not sold: the bid is unsold, its hold refunded, the seller told why', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { reserve: 1000 });
    const [asha, ravi] = [await richBidder(app, 2000, [auctionId]), await richBidder(app, 2000, [auctionId])];
    await bid(app, asha.token, productId, 400);
    expect((await bid(app, ravi.token, productId, 900)).statusCode).toBe(201);
    expect(await productAs(ravi.token, auctionId, productId)).toMatchObject({ reserve_met: false, my_status: 'leading' });
    const settled = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(settled.json()).toMatchObject({ sold: [], unsold: [{ id: productId, reason: 'RESERVE_NOT_MET' }] });
    expect(await balanceOf(app, ravi.token)).toBe(2000);
    expect((await myBids(ravi.token))[0]).toMatchObject({ status: 'failed', state: 'unsold', reason: 'RESERVE_NOT_MET', amount: 900 });
    expect((await ledger(ravi.token))[0]).toMatchObject({ type: 'refund', amount: 900, meta: { notes: expect.stringMatching(/^Reserve not met/) } });
    const unassigned = (await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token)).json<ProductJson[]>();
    expect(unassigned.map((p) => p.id)).toContain(productId);
    const audit = await expectMoneyInvariant(app);
    expect(audit.held + audit.paid).toBe(0);
  });

  it('a maximum at or above the reserve lifts the price to the reserve at once', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { reserve: 1000 });
    const [asha, ravi] = [await richBidder(app, 2000, [auctionId]), await richBidder(app, 2000, [auctionId])];
    // A maximum below the reserve stays at its proxy price and reveals nothing.
    expect((await proxy(ravi.token, productId, 800)).json()).toMatchObject({ highest_bid: 1 });
    expect((await proxy(asha.token, productId, 1500)).json()).toMatchObject({ highest_bid: 1000 });
    expect(await productAs(ravi.token, auctionId, productId)).toMatchObject({ reserve_met: true, highest_bid: 1000, min_next_bid: 1001 });
    expect((await bid(app, ravi.token, productId, 1200)).json()).toMatchObject({ leading: false, highest_bid: 1201 });
    expect(await balanceOf(app, ravi.token)).toBe(2000);
    const settled = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(settled.json()).toMatchObject({ sold: [{ product_id: productId, amount: 1201 }] });
    expect(await balanceOf(app, asha.token)).toBe(799);
    await expectMoneyInvariant(app);
  });
});

describe('buy now', () => {
  const buy = (token: string, productId: string) => call(app, 'POST', '/api/buy-now', { product_id: productId }, token);

  it('buys an unbid lot at once; the next buyer and later bids are refused; settling keeps it sold', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { buyNow: 1500 });
    const [asha, ravi] = [await richBidder(app, 2000, [auctionId]), await richBidder(app, 1000, [auctionId])];
    expectError(await buy(ravi.token, productId), 402, 'INSUFFICIENT_FUNDS');
    const bought = await buy(asha.token, productId);
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json()).toMatchObject({ wallet_balance: 500, bid: { status: 'success', state: 'won', amount: 1500, buy_now: true } });
    expectError(await buy(ravi.token, productId), 409, 'BUY_NOW_UNAVAILABLE');
    expectError(await bid(app, ravi.token, productId, 10), 409, 'PRODUCT_SOLD');
    expect(await productAs(asha.token, auctionId, productId)).toMatchObject({ status: 'sold', my_status: 'won', buy_now_price: null });
    expect(await productAs(ravi.token, auctionId, productId)).toMatchObject({ my_status: null });
    expectError(await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token), 409, 'PRODUCT_SOLD');
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).json()).toMatchObject({ sold: [{ product_id: productId, amount: 1500 }], unsold: [] });
    const audit = await expectMoneyInvariant(app);
    expect(audit.paid).toBe(1500_00);
  });

  it('goes with the first bid, unless a reserve is not yet met; buying refunds the leader', async () => {
    const admin = await start();
    const plain = await lot(admin, { buyNow: 1500 });
    const reserved = await lot(admin, { buyNow: 1500, reserve: 1000 });
    const [asha, ravi] = [await richBidder(app, 5000, [plain.auctionId, reserved.auctionId]), await richBidder(app, 5000, [plain.auctionId, reserved.auctionId])];
    await bid(app, asha.token, plain.productId, 10);
    expectError(await buy(ravi.token, plain.productId), 409, 'BUY_NOW_UNAVAILABLE');
    expect(await productAs(ravi.token, plain.auctionId, plain.productId)).toMatchObject({ buy_now_price: null });

    await proxy(asha.token, reserved.productId, 900);
    expect(await productAs(ravi.token, reserved.auctionId, reserved.productId)).toMatchObject({ buy_now_price: 1500, reserve_met: false });
    expect((await buy(ravi.token, reserved.productId)).statusCode).toBe(201);
    expect(await balanceOf(app, asha.token)).toBe(4990);
    expect((await myBids(asha.token))[0]).toMatchObject({ state: 'outbid' });
    await expectMoneyInvariant(app);
  });

  it('ten buyers at once: exactly one buys, nine get BUY_NOW_UNAVAILABLE, the money adds up', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { buyNow: 700 });
    const buyers = await Promise.all(Array.from({ length: 10 }, () => richBidder(app, 1000, [auctionId])));
    const answers = await Promise.all(buyers.map((b) => buy(b.token, productId)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().code).toBe('BUY_NOW_UNAVAILABLE');
    const audit = await expectMoneyInvariant(app);
    expect(audit.paid).toBe(700_00);
  });
});

describe('soft close', () => {
  it('a bid taking the lead in the last minutes moves the end to now + the window, never past the cap', async () => {
    const admin = await start({ softCloseS: 120 });
    const { productId, auctionId } = await lot(admin, { endsIn: 10 * 60_000, maxExtension: 180 });
    const end0 = clock.t + 10 * 60_000;
    const [asha, ravi] = [await richBidder(app, 5000, [auctionId]), await richBidder(app, 5000, [auctionId])];
    const auctionOf = async () => (await call(app, 'GET', '/api/auctions', undefined, asha.token)).json<{ id: string; valid_until: string; original_valid_until: string; extended: boolean; soft_close_s: number; max_extension_s: number }[]>().find((a) => a.id === auctionId)!;
    expect(await auctionOf()).toMatchObject({ soft_close_s: 120, max_extension_s: 180, extended: false });

    // Outside the window: nothing moves.
    await bid(app, asha.token, productId, 10);
    expect(Date.parse((await auctionOf()).valid_until)).toBe(end0);
    // 60 s left: the end moves to now + 120 s.
    clock.t = end0 - 60_000;
    await bid(app, ravi.token, productId, 20);
    expect(await auctionOf()).toMatchObject({ valid_until: iso(clock.t + 120_000), original_valid_until: iso(end0), extended: true });
    // Past the original end, still open: the next lead moves it again, up to original + 180 s.
    clock.t = end0 + 30_000;
    await bid(app, asha.token, productId, 30);
    expect(Date.parse((await auctionOf()).valid_until)).toBe(end0 + 150_000);
    clock.t = end0 + 100_000;
    await bid(app, ravi.token, productId, 40);
    expect(Date.parse((await auctionOf()).valid_until)).toBe(end0 + 180_000);
    // A raise of one's own lead does not extend; at the end the auction closes.
    clock.t = end0 + 179_000;
    await bid(app, ravi.token, productId, 50);
    expect(Date.parse((await auctionOf()).valid_until)).toBe(end0 + 180_000);
    clock.t = end0 + 180_000;
    expectError(await bid(app, asha.token, productId, 60), 409, 'AUCTION_ENDED');
  });

  it('soft_close_s 0 turns it off; an edit of the end starts counting afresh', async () => {
    const admin = await start({ softCloseS: 120 });
    const off = await lot(admin, { endsIn: 60_000, softClose: 0 });
    const asha = await richBidder(app, 100, [off.auctionId]);
    await bid(app, asha.token, off.productId, 10);
    const listed = (await call(app, 'GET', `/api/admin/auction/${off.auctionId}`, undefined, admin.token)).json();
    expect(listed).toMatchObject({ soft_close_s: 0, extended: false, valid_until: iso(clock.t + 60_000) });
    const moved = iso(clock.t + HOUR);
    const edited = await call(app, 'PUT', `/api/admin/auction/${off.auctionId}`, { name: 'Moved', valid_until: moved, soft_close_s: 300 }, admin.token);
    expect(edited.json().auction).toMatchObject({ valid_until: moved, original_valid_until: moved, soft_close_s: 300, extended: false });
  });
});

describe('concurrency', () => {
  it('a storm of maximums: the top one leads at one step above the second top, capped at its own; the money adds up', async () => {
    const admin = await start();
    for (const rule of ['flat', 'ladder'] as const) {
      const { productId, auctionId } = await lot(admin, { rule });
      const tops = Array.from({ length: 24 }, (_, i) => 1000 + ((i * 7919) % 24) * 137); // distinct, shuffled
      const bidders = await Promise.all(tops.map(() => richBidder(app, 5000, [auctionId])));
      const answers = await Promise.all(bidders.map((b, i) => (i % 4 === 3 ? bid(app, b.token, productId, tops[i]!) : proxy(b.token, productId, tops[i]!))));
      // Every bid either led when it landed or was answered at once; some plain ones may be too low by then.
      for (const a of answers) expect([201, 409], a.body).toContain(a.statusCode);
      const sorted = [...tops].sort((x, y) => y - x);
      const [first, second] = [sorted[0]!, sorted[1]!];
      const step = rule === 'flat' ? 1 : second < 1000 ? 10 : second < 5000 ? 50 : 100;
      const winner = bidders[tops.indexOf(first)]!;
      const p = await productAs(winner.token, auctionId, productId);
      expect(p, rule).toMatchObject({ highest_bid: Math.min(first, second + step), my_status: 'leading' });
      await expectMoneyInvariant(app);
    }
  });

  it('a settlement at the old end racing bids that extend it: either it wins and later bids are refused, or the end moved and it waits', async () => {
    const admin = await start({ softCloseS: 60 });
    const { settleAuction } = await import('../../domain/catalogue.js');
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const { productId, auctionId } = await lot(admin, { endsIn: 30_000 });
      const end = clock.t + 30_000;
      const bidders = await Promise.all(Array.from({ length: 8 }, () => richBidder(app, 1000, [auctionId])));
      clock.t = end - 1000;
      // The clock's settlement runs as if its timer fired at the end, while the bids (a second earlier) land.
      const settle = app.ctx.commands.run((tx) => settleAuction(tx, { auctionId }, () => end));
      const bids = bidders.map((b, i) => bid(app, b.token, productId, 10 + i));
      const [settled, ...answers] = await Promise.all([settle, ...bids]);
      const auction = (await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json<{ status: string; valid_until: string; extended: boolean }>();
      if (settled.ok) {
        outcomes.add('settled');
        expect(auction.status).toBe('settled');
        // Bids accepted before the settlement committed won or were outbid; none is still leading.
        const leading = await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, bidders[0]!.token);
        expect(leading.json<ProductJson[]>().every((x) => x.my_status !== 'leading')).toBe(true);
      } else {
        outcomes.add(settled.code);
        expect(settled.code).toBe('AUCTION_NOT_ENDED');
        expect(auction).toMatchObject({ status: 'active', extended: true, valid_until: iso(end - 1000 + 60_000) });
        expect(answers.filter((a) => a.statusCode === 201).length).toBeGreaterThan(0);
      }
      await expectMoneyInvariant(app);
      clock.t = end + 120_000;
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});
