/**
 * A cancel leaves the prices it would have left had the bid never been placed (docs/bidding.md#cancelling-a-bid),
 * through the HTTP API on both stores: the leader that results keeps its maximum and is priced against
 * the bids that remain, the automatic raises that answered the cancelled bid go with it, an extension
 * only it caused is undone, a leader's plain bid above its own maximum raises that maximum, and every
 * read of a lot's bid count agrees. The money invariant after every scenario.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import type { DomainEvent } from '../../domain/events.js';
import { balanceOf, bid, call, expectMoneyInvariant, makeApp, makeClock, richBidder, signUpAdmin, uniqueName } from '../../test/helpers.js';
import { iso } from '../../presenters/format.js';

let app: App;
let clock: ReturnType<typeof makeClock>;
let seen: DomainEvent[];
afterEach(async () => { await app?.close(); });

async function start() {
  clock = makeClock();
  app = await makeApp({ autoSettle: false }, { now: clock.now });
  seen = [];
  app.ctx.events.subscribe((events) => { seen.push(...events); });
  return signUpAdmin(app);
}

/** One lot (flat ₹1 steps, starting at ₹0 unless told) in its own auction. */
async function lot(admin: { token: string }, o: { starting?: number; endsIn?: number; softClose?: number } = {}) {
  const productId = uniqueName('CF');
  const created = await call(app, 'POST', '/api/admin/product', {
    id: productId, name: `Lot ${productId}`, description: 'A lot', ...(o.starting === undefined ? {} : { starting_price: o.starting }),
  }, admin.token);
  expect(created.statusCode, created.body).toBe(201);
  const auctionId = uniqueName('CFA');
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: auctionId, name: `Auction ${auctionId}`, valid_until: iso(clock.t + (o.endsIn ?? 3600_000)), product_ids: [productId],
    ...(o.softClose === undefined ? {} : { soft_close_s: o.softClose }),
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  return { productId, auctionId };
}

const proxy = (token: string, productId: string, max: number) => call(app, 'POST', '/api/bid', { product_id: productId, max_amount: max }, token);
const cancel = (token: string, bidId: number) => call(app, 'POST', '/api/rollback-bid', { bid_id: bidId }, token);
const bidId = (res: Awaited<ReturnType<typeof bid>>) => {
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bid: { bid_id: number } }>().bid.bid_id;
};

interface History { bid_id: number; amount: number; status: string; state: string; auto: boolean }
interface LotPage { highest_bid: number; bid_count: number; my_status: string | null; my_max: number | null; bids: History[]; auction: { valid_until: string; bid_count?: number } }
async function page(token: string, productId: string): Promise<LotPage> {
  const res = await call(app, 'GET', `/api/products/${productId}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LotPage>();
}

/** Every read of the lot's bid count: the lot page, its auction's summary, both reports, the last live event. */
async function expectBidCount(admin: { token: string }, bidder: { token: string }, productId: string, auctionId: string, n: number) {
  const seenOnPage = await page(bidder.token, productId);
  expect(seenOnPage.bid_count).toBe(n);
  expect(seenOnPage.auction.bid_count).toBe(n);
  const reports = (await call(app, 'GET', '/api/admin/reports', undefined, admin.token)).json<{ auctions: { id: string; bid_count: number }[]; products: { id: string; bid_count: number }[] }>();
  expect(reports.auctions.find((a) => a.id === auctionId)?.bid_count).toBe(n);
  expect(reports.products.find((p) => p.id === productId)?.bid_count).toBe(n);
  const live = seen.filter((e): e is Extract<DomainEvent, { bidCount: number }> => 'bidCount' in e && e.productId === productId).at(-1);
  expect(live?.bidCount).toBe(n);
}

describe('a cancel leaves the prices it would have left had the bid never been placed', () => {
  it('plain ₹4,000, maximum ₹5,000, plain ₹7,500 cancelled: the maximum leads at ₹4,001 again, all of it held', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [x, a, c] = [await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId])];
    bidId(await bid(app, x.token, productId, 4000));
    expect((await proxy(a.token, productId, 5000)).json()).toMatchObject({ leading: true, highest_bid: 4001, max_amount: 5000 });
    await expectBidCount(admin, a, productId, auctionId, 2);
    const cs = bidId(await bid(app, c.token, productId, 7500));
    // A's maximum reached its top on the way (an automatic raise to ₹5,000, shown and counted).
    expect((await page(a.token, productId)).bids.filter((h) => h.auto)).toMatchObject([{ amount: 5000, state: 'outbid' }]);
    await expectBidCount(admin, a, productId, auctionId, 4);

    const res = await cancel(c.token, cs);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ wallet_balance: 10_000, highest_bid: 4001 });
    const seenByA = await page(a.token, productId);
    expect(seenByA).toMatchObject({ highest_bid: 4001, my_status: 'leading', my_max: 5000 });
    expect(await balanceOf(app, a.token)).toBe(5000);
    // The history keeps the cancelled bid and the raise that answered it, both marked rolledback.
    expect(seenByA.bids.map((h) => [h.amount, h.state, h.auto])).toEqual([
      [7500, 'rolledback', false], [5000, 'rolledback', true], [4001, 'success', false], [4000, 'outbid', false],
    ]);
    await expectBidCount(admin, a, productId, auctionId, 2);
    // The next bid meets the maximum where it stands.
    expect((await bid(app, x.token, productId, 4500)).json()).toMatchObject({ leading: false, highest_bid: 4501 });
    await expectMoneyInvariant(app);
  });

  it('maximums ₹5,000 and ₹6,000, then a plain ₹9,000 cancelled: ₹6,000 leads at ₹5,001', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [a, b, c] = [await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId])];
    await proxy(a.token, productId, 5000);
    expect((await proxy(b.token, productId, 6000)).json()).toMatchObject({ leading: true, highest_bid: 5001 });
    const cs = bidId(await bid(app, c.token, productId, 9000));
    await expectBidCount(admin, b, productId, auctionId, 5);
    expect((await cancel(c.token, cs)).json()).toMatchObject({ highest_bid: 5001 });
    expect(await page(b.token, productId)).toMatchObject({ highest_bid: 5001, my_status: 'leading', my_max: 6000 });
    expect(await balanceOf(app, b.token)).toBe(4000);
    expect(await balanceOf(app, a.token)).toBe(10_000);
    // A, A's raise to its top when B beat it, B: C and B's raise that answered C are gone.
    await expectBidCount(admin, b, productId, auctionId, 3);
    expect(seen.filter((e) => e.type === 'bid:reinstated').at(-1)).toMatchObject({ amount: 500_100 });
    await expectMoneyInvariant(app);
  });

  it('a bid placed against the cancelled maximum and answered by it leads after the cancel, priced against the rest', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [a, c, d] = [await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId])];
    await proxy(a.token, productId, 5000);
    const cs = bidId(await proxy(c.token, productId, 9000));
    expect((await proxy(d.token, productId, 7000)).json()).toMatchObject({ leading: false, highest_bid: 7001 });
    expect((await cancel(c.token, cs)).json()).toMatchObject({ highest_bid: 5001 });
    expect(await page(d.token, productId)).toMatchObject({ highest_bid: 5001, my_status: 'leading', my_max: 7000 });
    expect(await balanceOf(app, d.token)).toBe(3000);
    await expectMoneyInvariant(app);
  });

  /**
   * X bids ₹1,000, A's ₹5,000 maximum answers, B's ₹6,000 maximum leads; then A spends `elsewhere` on
   * another lot, so that when B cancels, A's wallet holds less than its maximum.
   */
  async function aShortOfItsMaximum(elsewhere: number) {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const other = await lot(admin);
    const x = await richBidder(app, 10_000, [auctionId]);
    const a = await richBidder(app, 5000, [auctionId, other.auctionId]);
    const b = await richBidder(app, 10_000, [auctionId]);
    await bid(app, x.token, productId, 1000);
    await proxy(a.token, productId, 5000);
    const bs = bidId(await proxy(b.token, productId, 6000));
    bidId(await bid(app, a.token, other.productId, elsewhere));
    return { productId, x, a, b, bs };
  }

  it('a candidate that can cover its price but not its whole maximum leads with its maximum lowered to what its wallet holds', async () => {
    // A spends ₹3,000 elsewhere: ₹2,000 left, more than the ₹1,001 it must lead at.
    const { productId, a, b, bs } = await aShortOfItsMaximum(3000);
    expect((await cancel(b.token, bs)).json()).toMatchObject({ highest_bid: 1001 });
    expect(await page(a.token, productId)).toMatchObject({ highest_bid: 1001, my_status: 'leading', my_max: 2000 });
    expect(await balanceOf(app, a.token)).toBe(0);
    await expectMoneyInvariant(app);
  });

  it('a candidate whose wallet holds less than the next bid would need stands at what it can hold: the plain bid above it leads', async () => {
    const { productId, x, b, bs } = await aShortOfItsMaximum(4500);
    expect((await cancel(b.token, bs)).json()).toMatchObject({ highest_bid: 1000 });
    expect(await page(x.token, productId)).toMatchObject({ highest_bid: 1000, my_status: 'leading', my_max: null });
    await expectMoneyInvariant(app);
  });
});

describe('a leader never bids against itself', () => {
  it('a plain bid above the leader’s own maximum raises that maximum; the price and the count stay', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [a, b] = [await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId])];
    await proxy(a.token, productId, 5000);
    expect((await bid(app, b.token, productId, 3000)).json()).toMatchObject({ leading: false, highest_bid: 3001 });
    await expectBidCount(admin, a, productId, auctionId, 3);
    const raised = await bid(app, a.token, productId, 6000);
    expect(raised.statusCode, raised.body).toBe(201);
    expect(raised.json()).toMatchObject({ leading: true, highest_bid: 3001, max_amount: 6000 });
    expect(await balanceOf(app, a.token)).toBe(4000);
    expect(await page(a.token, productId)).toMatchObject({ highest_bid: 3001, my_max: 6000 });
    await expectBidCount(admin, a, productId, auctionId, 3);
    expect((await bid(app, b.token, productId, 5500)).json()).toMatchObject({ leading: false, highest_bid: 5501 });
    await expectMoneyInvariant(app);
  });

  it('a price held at the old maximum (a tie) gets the step above the runner-up it lacked when the maximum is raised', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const [a, b] = [await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId])];
    await proxy(b.token, productId, 2400);
    await proxy(a.token, productId, 3900);
    expect((await proxy(b.token, productId, 3900)).json()).toMatchObject({ leading: false, highest_bid: 3900 });
    expect((await proxy(a.token, productId, 4500)).json()).toMatchObject({ leading: true, highest_bid: 3901, max_amount: 4500 });
    await expectMoneyInvariant(app);
  });

  it('a leader without a maximum who bids again places a new plain bid at that amount, as before', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin);
    const a = await richBidder(app, 10_000, [auctionId]);
    await bid(app, a.token, productId, 1000);
    expect((await bid(app, a.token, productId, 2000)).json()).toMatchObject({ leading: true, highest_bid: 2000, max_amount: null });
    expect(await balanceOf(app, a.token)).toBe(8000);
    await expectBidCount(admin, a, productId, auctionId, 2);
    await expectMoneyInvariant(app);
  });
});

describe('an extension only the cancelled bid caused is undone', () => {
  it('the end goes back to where the bid found it, and the clock is told', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { endsIn: 600_000, softClose: 120 });
    const [x, c] = [await richBidder(app, 10_000, [auctionId]), await richBidder(app, 10_000, [auctionId])];
    clock.advance(510_000); // 90 s left
    bidId(await bid(app, x.token, productId, 100)); // extends to now + 120 s: stays
    const xEnd = clock.t + 120_000;
    expect(Date.parse((await page(x.token, productId)).auction.valid_until)).toBe(xEnd);
    clock.advance(30_000);
    const cs = bidId(await bid(app, c.token, productId, 200));
    expect(Date.parse((await page(x.token, productId)).auction.valid_until)).toBe(clock.t + 120_000);
    expect((await cancel(c.token, cs)).statusCode).toBe(200);
    expect(Date.parse((await page(x.token, productId)).auction.valid_until)).toBe(xEnd);
    // The same event a bid's extension sends: the clients move their countdowns, the clock re-arms.
    expect(seen.filter((e) => e.type === 'auction:extended').at(-1)).toMatchObject({ auctionId, validUntil: xEnd });
    await expectMoneyInvariant(app);
  });

  it('never to less than 60 s after the cancel', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { endsIn: 600_000, softClose: 120 });
    const c = await richBidder(app, 10_000, [auctionId]);
    const end = clock.t + 600_000;
    clock.advance(570_000); // 30 s left
    const cs = bidId(await bid(app, c.token, productId, 100));
    expect(Date.parse((await page(c.token, productId)).auction.valid_until)).toBe(clock.t + 120_000);
    clock.advance(10_000);
    expect((await cancel(c.token, cs)).statusCode).toBe(200);
    const after = Date.parse((await page(c.token, productId)).auction.valid_until);
    expect(after).toBe(clock.t + 60_000);
    expect(after).toBeGreaterThan(end);
    expect(seen.filter((e) => e.type === 'auction:extended').at(-1)).toMatchObject({ auctionId, validUntil: after });
  });

  it('an end the bid did not set (an admin edit since) stays', async () => {
    const admin = await start();
    const { productId, auctionId } = await lot(admin, { endsIn: 600_000, softClose: 120 });
    const c = await richBidder(app, 10_000, [auctionId]);
    clock.advance(570_000);
    const cs = bidId(await bid(app, c.token, productId, 100));
    const edited = clock.t + 3600_000;
    const res = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: `Auction ${auctionId}`, valid_until: iso(edited), product_ids: [productId] }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await cancel(c.token, cs)).statusCode).toBe(200);
    expect(Date.parse((await page(c.token, productId)).auction.valid_until)).toBe(edited);
  });
});
