/**
 * Steps the seller chooses and the cancel policy of an auction (docs/bidding.md#increments and
 * #cancelling-a-bid), through the HTTP API on both stores: flat amounts and custom tiers in
 * min_next_bid, BID_TOO_LOW and proxy pricing; their validation; the strict cancel policy against the
 * app's clock; each bidder's count of cancels for the seller; old clients that send only spec fields.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { HOUR, bid, call, expectError, expectMoneyInvariant, makeApp, makeClock, richBidder, signUpAdmin, uniqueName } from '../../test/helpers.js';
import { expectValidation } from '../../test/catalogue-helpers.js';

let app: App;
let clock: ReturnType<typeof makeClock>;
afterEach(async () => { await app?.close(); });

const MIN = 60_000;

async function start() {
  clock = makeClock();
  app = await makeApp({ autoSettle: false }, { now: clock.now });
  return signUpAdmin(app);
}

async function product(admin: { token: string }, starting?: number) {
  const id = uniqueName('L');
  const res = await call(app, 'POST', '/api/admin/product', { id, name: `Lot ${id}`, description: 'A lot', ...(starting !== undefined ? { starting_price: starting } : {}) }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  return id;
}

/** One lot in its own auction with the given rules (sent as they are). */
async function lot(admin: { token: string }, rules: Record<string, unknown>, o: { starting?: number; endsIn?: number } = {}) {
  const productId = await product(admin, o.starting);
  const auctionId = uniqueName('A');
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: auctionId, name: `Auction ${auctionId}`, valid_until: new Date(clock.t + (o.endsIn ?? 3 * HOUR)).toISOString(), product_ids: [productId], ...rules,
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  return { productId, auctionId, auction: res.json<{ auction: Record<string, unknown> }>().auction };
}

const minNext = async (token: string, productId: string) => (await call(app, 'GET', `/api/products/${productId}`, undefined, token)).json<{ min_next_bid: number }>().min_next_bid;
const proxy = (token: string, productId: string, max: number) => call(app, 'POST', '/api/bid', { product_id: productId, max_amount: max }, token);
const bidId = (res: { json: <T>() => T }) => res.json<{ bid: { bid_id: number } }>().bid.bid_id;
const cancel = (token: string, id: number) => call(app, 'POST', '/api/rollback-bid', { bid_id: id }, token);

describe('steps the seller chooses', () => {
  it('flat ₹50: the minimum, BID_TOO_LOW and every auction shape follow the amount', async () => {
    const admin = await start();
    const { productId, auctionId, auction } = await lot(admin, { increment_rule: 'flat', increment_amount: 50 }, { starting: 500 });
    expect(auction).toMatchObject({ increment_rule: 'flat', increment_amount: 50, increment_tiers: [], cancel_policy: 'until_end' });
    const asha = await richBidder(app, 10_000, [auctionId]);
    const ravi = await richBidder(app, 10_000, [auctionId]);
    expect(await minNext(asha.token, productId)).toBe(500);
    expect((await bid(app, asha.token, productId, 500)).json()).toMatchObject({ highest_bid: 500, min_next_bid: 550 });
    expect(await minNext(ravi.token, productId)).toBe(550);
    expect((await bid(app, ravi.token, productId, 549)).json()).toMatchObject({ code: 'BID_TOO_LOW', message: 'Bid must be at least ₹550' });
    expect((await bid(app, ravi.token, productId, 500)).json()).toMatchObject({ code: 'BID_TOO_LOW', message: 'Bid must be higher than current highest bid of ₹500' });
    expect((await bid(app, ravi.token, productId, 550)).json()).toMatchObject({ highest_bid: 550, min_next_bid: 600 });

    const listed = (await call(app, 'GET', '/api/auctions', undefined, asha.token)).json<Record<string, unknown>[]>().find((a) => a.id === auctionId);
    expect(listed).toMatchObject({ increment_rule: 'flat', increment_amount: 50, increment_tiers: [], cancel_policy: 'until_end' });
    const lotPage = (await call(app, 'GET', `/api/products/${productId}`, undefined, asha.token)).json<{ auction: Record<string, unknown> }>();
    expect(lotPage.auction).toMatchObject({ increment_amount: 50 });
    await expectMoneyInvariant(app);
  });

  it('custom tiers: each tier’s step up to its "below", the last one above', async () => {
    const admin = await start();
    const tiers = [{ below: 1000, step: 10 }, { below: 5000, step: 100 }, { step: 500 }];
    const { productId, auctionId, auction } = await lot(admin, { increment_rule: 'custom', increment_tiers: tiers });
    expect(auction).toMatchObject({ increment_rule: 'custom', increment_tiers: [{ below: 1000, step: 10 }, { below: 5000, step: 100 }, { below: null, step: 500 }] });
    const asha = await richBidder(app, 20_000, [auctionId]);
    const ravi = await richBidder(app, 20_000, [auctionId]);
    expect((await bid(app, asha.token, productId, 990)).json()).toMatchObject({ min_next_bid: 1000 });
    expect((await bid(app, ravi.token, productId, 1000)).json()).toMatchObject({ min_next_bid: 1100 });
    expect((await bid(app, asha.token, productId, 1099.99)).json()).toMatchObject({ code: 'BID_TOO_LOW', message: 'Bid must be at least ₹1,100' });
    expect((await bid(app, asha.token, productId, 4950)).json()).toMatchObject({ min_next_bid: 5050 });
    expect((await bid(app, ravi.token, productId, 5050)).json()).toMatchObject({ min_next_bid: 5550 });
    expect(await minNext(asha.token, productId)).toBe(5550);
    expect((await bid(app, asha.token, productId, 5549)).json()).toMatchObject({ code: 'BID_TOO_LOW', message: 'Bid must be at least ₹5,550' });
    await expectMoneyInvariant(app);
  });

  it('a maximum answers and beats a plain bid by one chosen step (flat ₹100: ₹3,000 against ₹3,500 → ₹3,100)', async () => {
    const admin = await start();
    const a = await lot(admin, { increment_rule: 'flat', increment_amount: 100 });
    const asha = await richBidder(app, 10_000, [a.auctionId]);
    const ravi = await richBidder(app, 10_000, [a.auctionId]);
    // The maximum first: the plain bid is answered at once.
    expect((await proxy(asha.token, a.productId, 3500)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, a.productId, 3000)).json()).toMatchObject({ leading: false, highest_bid: 3100, min_next_bid: 3200 });
    // The plain bid first: the maximum takes the lead one step above it.
    const b = await lot(admin, { increment_rule: 'flat', increment_amount: 100 });
    const meera = await richBidder(app, 10_000, [b.auctionId]);
    const dev = await richBidder(app, 10_000, [b.auctionId]);
    expect((await bid(app, meera.token, b.productId, 3000)).statusCode).toBe(201);
    expect((await proxy(dev.token, b.productId, 3500)).json()).toMatchObject({ leading: true, highest_bid: 3100, max_amount: 3500, min_next_bid: 3200 });
    await expectMoneyInvariant(app);
  });

  it('bad steps are 400 VALIDATION naming the field; nothing is created', async () => {
    const admin = await start();
    const productId = await product(admin);
    const create = (rules: Record<string, unknown>) => call(app, 'POST', '/api/admin/auction', {
      id: uniqueName('A'), name: 'Bad', valid_until: new Date(clock.t + HOUR).toISOString(), product_ids: [productId], ...rules,
    }, admin.token);
    expectValidation(await create({ increment_rule: 'custom', increment_tiers: [{ below: 5000, step: 50 }, { below: 1000, step: 10 }, { step: 100 }] }),
      'increment_tiers', 'increment_tiers: "below" amounts must go up from tier to tier, but tier 2 (₹1,000) is not above tier 1 (₹5,000)');
    expectValidation(await create({ increment_rule: 'custom', increment_tiers: [{ below: 1000, step: 10 }, { below: 5000, step: 50 }] }),
      'increment_tiers', 'increment_tiers: the last tier must have no "below" amount, so that it covers every higher price');
    expectValidation(await create({ increment_rule: 'custom', increment_tiers: [{ step: 10 }, { step: 50 }] }),
      'increment_tiers', 'increment_tiers: tier 1 needs a "below" amount (only the last tier goes without one)');
    expectValidation(await create({ increment_rule: 'custom' }), 'increment_tiers', 'increment_tiers must list the tiers of custom steps');
    const amountMessage = 'increment_amount must be an amount in rupees from 1 to 100000, with at most 2 decimals';
    expectValidation(await create({ increment_rule: 'flat', increment_amount: 0.5 }), 'increment_amount', amountMessage);
    expectValidation(await create({ increment_rule: 'flat', increment_amount: 100_001 }), 'increment_amount', amountMessage);
    expectValidation(await create({ increment_amount: '50' }), 'increment_amount', 'increment_amount must be a number');
    expectValidation(await create({ increment_amount: 10.005 }), 'increment_amount', 'increment_amount must have at most 2 decimals');
    expectError(await create({ increment_rule: 'custom', increment_tiers: [{ step: 0 }] }), 400, 'VALIDATION');
    expectError(await create({ increment_rule: 'custom', increment_tiers: [] }), 400, 'VALIDATION');
    expectError(await create({ increment_rule: 'custom', increment_tiers: 'big' }), 400, 'VALIDATION');
    expectValidation(await create({ increment_rule: 'steep' }), 'increment_rule', 'increment_rule must be flat, ladder or custom');
    expectValidation(await create({ cancel_policy: 'never' }), 'cancel_policy', 'cancel_policy must be until_end or strict');
    const unassigned = (await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token)).json<{ id: string }[]>();
    expect(unassigned.map((p) => p.id)).toEqual([productId]);
  });

  it('steps and the cancel policy change freely until a lot has a bid, then 409 PRODUCT_HAS_BIDS; other edits keep them', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, {});
    const edit = (rules: Record<string, unknown>) => call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'A', valid_until: new Date(clock.t + 3 * HOUR).toISOString(), ...rules }, admin.token);
    expect((await edit({ increment_rule: 'custom', increment_tiers: [{ below: 100, step: 5 }, { step: 25 }], cancel_policy: 'strict' })).json().auction)
      .toMatchObject({ increment_rule: 'custom', increment_tiers: [{ below: 100, step: 5 }, { below: null, step: 25 }], cancel_policy: 'strict' });
    const asha = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, asha.token, productId, 100)).json()).toMatchObject({ min_next_bid: 125 });
    const steps = expectError(await edit({ increment_rule: 'flat', increment_amount: 10 }), 409, 'PRODUCT_HAS_BIDS');
    expect(steps.error).toBe(`Product ${productId} has bids: the bid steps can no longer change`);
    expectError(await edit({ increment_tiers: [{ below: 100, step: 5 }, { step: 30 }] }), 409, 'PRODUCT_HAS_BIDS');
    expect(expectError(await edit({ cancel_policy: 'until_end' }), 409, 'PRODUCT_HAS_BIDS').error).toBe(`Product ${productId} has bids: the cancel policy can no longer change`);
    // Resending the same rules, or none (an old client), is fine and keeps them.
    expect((await edit({ increment_rule: 'custom', increment_tiers: [{ below: 100, step: 5 }, { below: null, step: 25 }], cancel_policy: 'strict' })).statusCode).toBe(200);
    expect((await edit({ increment_amount: 40 })).statusCode).toBe(200);
    expect((await edit({})).json().auction).toMatchObject({ name: 'A', increment_rule: 'custom', increment_amount: 40, cancel_policy: 'strict' });
    expect(await minNext(asha.token, productId)).toBe(125);
  });

  it('an old client sending only spec fields gets ₹1 steps and cancels until the end', async () => {
    const admin = await start();
    const productId = await product(admin);
    const auctionId = uniqueName('A');
    const res = await call(app, 'POST', '/api/admin/auction', { id: auctionId, name: 'Plain', valid_until: new Date(clock.t + HOUR).toISOString(), product_ids: [productId] }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().auction).toMatchObject({ increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end' });
    const asha = await richBidder(app, 1000, [auctionId]);
    const first = await call(app, 'POST', '/api/bid', { user_id: asha.user.username, product_name: `Lot ${productId}`, bid_amount: 10 }, asha.token);
    expect(first.json()).toMatchObject({ message: 'Bid placed successfully!', highest_bid: 10, min_next_bid: 11 });
    clock.advance(50 * MIN);
    expect((await cancel(asha.token, bidId(first))).statusCode).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('publishes the step and cancel-policy fields on auction bodies and shapes', async () => {
    await start();
    const doc = JSON.stringify((await call(app, 'GET', '/api/docs/json')).json());
    for (const field of ['increment_amount', 'increment_tiers', 'cancel_policy', 'bidder_cancels']) expect(doc).toContain(`"${field}"`);
    expect(doc).toContain('"custom"');
    expect(doc).toContain('"strict"');
  });
});

describe('cancel policy', () => {
  it('strict: a bid may be cancelled within 10 minutes of being placed, not after', async () => {
    const admin = await start();
    const { productId, auctionId, auction } = await lot(admin, { cancel_policy: 'strict' }, { endsIn: 3 * HOUR });
    expect(auction).toMatchObject({ cancel_policy: 'strict' });
    const asha = await richBidder(app, 1000, [auctionId]);
    const early = await bid(app, asha.token, productId, 10);
    clock.advance(9 * MIN);
    expect((await cancel(asha.token, bidId(early))).statusCode).toBe(200);
    const late = await bid(app, asha.token, productId, 20);
    clock.advance(10 * MIN + 1000);
    const refused = expectError(await cancel(asha.token, bidId(late)), 409, 'CANCEL_NOT_ALLOWED');
    expect(refused.error).toBe('Bids in this auction can be cancelled only within 10 minutes of being placed; this bid can no longer be cancelled');
    expect((await call(app, 'GET', `/api/products/${productId}`, undefined, asha.token)).json()).toMatchObject({ highest_bid: 20, my_status: 'leading' });
    await expectMoneyInvariant(app);
  });

  it('strict: never in the auction’s last hour, even a bid just placed; until_end allows both', async () => {
    const admin = await start();
    const strict = await lot(admin, { cancel_policy: 'strict' }, { endsIn: HOUR + 5 * MIN });
    const open = await lot(admin, {}, { endsIn: HOUR + 5 * MIN });
    const asha = await richBidder(app, 1000, [strict.auctionId, open.auctionId]);
    const inTime = await bid(app, asha.token, strict.productId, 10);
    clock.advance(6 * MIN);
    const refused = expectError(await cancel(asha.token, bidId(inTime)), 409, 'CANCEL_NOT_ALLOWED');
    expect(refused.error).toBe('Bids in this auction cannot be cancelled in its last hour');
    const fresh = await bid(app, asha.token, strict.productId, 20);
    expectError(await cancel(asha.token, bidId(fresh)), 409, 'CANCEL_NOT_ALLOWED');

    const placed = await bid(app, asha.token, open.productId, 10);
    clock.advance(30 * MIN);
    expect((await cancel(asha.token, bidId(placed))).statusCode).toBe(200);
    await expectMoneyInvariant(app);
  });

  it('the seller sees each bidder’s count of cancels in the auction; other admins do not', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, {});
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    for (const amount of [10, 20]) expect((await cancel(asha.token, bidId(await bid(app, asha.token, productId, amount))))).toMatchObject({ statusCode: 200 });
    expect((await bid(app, ravi.token, productId, 30)).statusCode).toBe(201);
    expect((await bid(app, asha.token, productId, 40)).statusCode).toBe(201);
    const read = await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().bidder_cancels).toEqual([
      { user_id: asha.user.id, username: asha.user.username, cancels: 2 },
      { user_id: ravi.user.id, username: ravi.user.username, cancels: 0 },
    ]);
    const other = await signUpAdmin(app);
    expect((await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, other.token)).json()).not.toHaveProperty('bidder_cancels');
    const mine = (await call(app, 'GET', '/api/admin/auctions/my', undefined, admin.token)).json<Record<string, unknown>[]>();
    expect(mine[0]).not.toHaveProperty('bidder_cancels');
  });
});
