/**
 * Bidder stories through the HTTP API, each checked to the paisa (docs/money.md): outbid refunds, cancel
 * with reinstatement, settlement, the end of an auction, deletions, equal amounts. Every story ends with
 * the money invariant Σ topups = Σ balances + Σ held + Σ paid.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { setUserStatus } from '../domain/accounts.js';
import {
  HOUR, balanceOf, bid, call, createAuction, expectError, expectMoneyInvariant, makeApp, makeClock, richBidder, signUpAdmin,
} from '../test/helpers.js';
import { iso } from '../presenters/format.js';

let clock: ReturnType<typeof makeClock>;
let app: App;
beforeEach(async () => {
  clock = makeClock();
  // AUTO_SETTLE off: settlement happens when a story says so, not when the scheduler notices the moved clock.
  app = await makeApp({ autoSettle: false }, { now: clock.now });
});
afterEach(async () => { await app.close(); });

const SECOND = 1000;

interface UserBidJson { bid_id: number; product_id: string; amount: number; timestamp: string; status: string; state: string; reason: string | null }
interface TxJson { _id: string; type: string; kind: string; amount: number; timestamp: string; meta: { notes: string | null; product_id: string | null } }

const bidsOf = async (token: string) => (await call(app, 'GET', '/api/user-bids', undefined, token)).json<UserBidJson[]>();
const txsOf = async (token: string) => (await call(app, 'GET', '/api/wallet/transactions', undefined, token)).json<{ transactions: TxJson[] }>().transactions;
const highestOf = async (token: string, productId: string) =>
  (await call(app, 'GET', `/api/highest-bid?product_key=${productId}`, undefined, token)).json<{ highest_bid: number }>().highest_bid;
const cancel = (token: string, bidId: number) => call(app, 'POST', '/api/rollback-bid', { bid_id: bidId }, token);

/** Places an accepted bid one second after the previous step; returns its id and timestamp. */
async function place(token: string, productId: string, amount: number) {
  clock.advance(SECOND);
  const res = await bid(app, token, productId, amount);
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().bid.bid_id as number, at: iso(clock.t) };
}

async function bidById(token: string, bidId: number) {
  const found = (await bidsOf(token)).find((b) => b.bid_id === bidId);
  expect(found, `bid ${bidId}`).toBeDefined();
  return found!;
}

async function expectBalances(expected: [{ token: string }, number][]) {
  for (const [user, rupees] of expected) expect(await balanceOf(app, user.token)).toBe(rupees);
}

describe('1. outbid', () => {
  it('refunds the outbid leader at once with a refund ledger row; a raise of one’s own lead releases then re-holds', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { now: clock.t });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);

    const a1 = await place(asha.token, p!, 400);
    await expectBalances([[asha, 600], [ravi, 1000]]);
    const r1 = await place(ravi.token, p!, 500);
    await expectBalances([[asha, 1000], [ravi, 500]]);
    expect((await bidById(asha.token, a1.id)).state).toBe('outbid');
    expect(await highestOf(asha.token, p!)).toBe(500);

    const [refund, hold, topup] = await txsOf(asha.token);
    expect(refund).toMatchObject({ type: 'refund', amount: 400, timestamp: r1.at, meta: { product_id: p } });
    expect(refund!.meta.notes).toMatch(/outbid/i);
    expect(hold).toMatchObject({ type: 'bid', amount: 400, timestamp: a1.at, meta: { product_id: p } });
    expect(topup).toMatchObject({ type: 'topup', amount: 1000 });

    // Ravi raises his own lead from ₹500 to ₹1,000 with ₹500 free: the old hold is refunded first.
    const r2 = await place(ravi.token, p!, 1000);
    await expectBalances([[asha, 1000], [ravi, 0]]);
    expect((await txsOf(ravi.token)).map((t) => [t.type, t.amount, t.timestamp])).toEqual([
      ['bid', 1000, r2.at], ['refund', 500, r2.at], ['bid', 500, r1.at], ['topup', 1000, iso(clock.t - 3 * SECOND)],
    ]);
    expect((await bidsOf(ravi.token)).map((b) => [b.amount, b.state])).toEqual([[1000, 'success'], [500, 'outbid']]);

    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 200_000, balances: 100_000, held: 100_000, paid: 0 });
  });
});

describe('2. cancelling the leader reinstates the best earlier bid of another bidder', () => {
  it('reinstates it with its original timestamp, a bid ledger row and a debit; highest = its amount', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { now: clock.t });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const chen = await richBidder(app, 1000, [auctionId]);

    await place(asha.token, p!, 300);
    const r = await place(ravi.token, p!, 400);
    const a = await place(asha.token, p!, 450);
    const c = await place(chen.token, p!, 600);
    await expectBalances([[asha, 1000], [ravi, 1000], [chen, 400]]);

    clock.advance(SECOND);
    const res = await cancel(chen.token, c.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Bid cancelled and amount refunded successfully!', wallet_balance: 1000, highest_bid: 450 });
    const cancelledAt = iso(clock.t);

    expect(await bidById(chen.token, c.id)).toMatchObject({ state: 'rolledback', timestamp: c.at });
    expect(await bidById(asha.token, a.id)).toMatchObject({ state: 'success', amount: 450, timestamp: a.at });
    expect((await bidsOf(asha.token)).map((b) => b.state)).toEqual(['success', 'outbid']);
    expect((await bidById(ravi.token, r.id)).state).toBe('outbid');
    await expectBalances([[asha, 550], [ravi, 1000], [chen, 1000]]);
    expect(await highestOf(ravi.token, p!)).toBe(450);
    const products = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, ravi.token)).json();
    expect(products[0]).toMatchObject({ id: p, highest_bid: 450 });

    const [reinstated] = await txsOf(asha.token);
    expect(reinstated).toMatchObject({ type: 'bid', amount: 450, timestamp: cancelledAt, meta: { product_id: p } });
    expect(reinstated!.meta.notes).toMatch(/reinstated/i);
    const [refund] = await txsOf(chen.token);
    expect(refund).toMatchObject({ type: 'refund', amount: 600, timestamp: cancelledAt, meta: { product_id: p } });
    expect(refund!.meta.notes).toMatch(/cancel/i);

    // The reinstated bid leads like any other: it can be outbid (and refunded) or cancelled.
    await place(ravi.token, p!, 500);
    await expectBalances([[asha, 1000], [ravi, 500]]);
    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 300_000, balances: 250_000, held: 50_000, paid: 0 });
  });
});

describe('3. reinstatement skips whoever can no longer pay, or has cancelled', () => {
  it('skips a bidder who spent the money elsewhere, reinstates the next covered one; none left → highest 0', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q] } = await createAuction(app, admin.token, { now: clock.t, products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const chen = await richBidder(app, 1000, [auctionId]);

    const r = await place(ravi.token, p!, 600);
    const cEarly = await place(chen.token, p!, 650);
    const a = await place(asha.token, p!, 800);
    const cLead = await place(chen.token, p!, 900);
    await place(asha.token, q!, 700); // Asha's money is now elsewhere: ₹300 free.
    await expectBalances([[asha, 300], [ravi, 1000], [chen, 100]]);

    // Chen cancels: Asha's ₹800 cannot be covered (₹300), Ravi's ₹600 can.
    const first = await cancel(chen.token, cLead.id);
    expect(first.json()).toEqual({ message: 'Bid cancelled and amount refunded successfully!', wallet_balance: 1000, highest_bid: 600 });
    expect(await bidById(asha.token, a.id)).toMatchObject({ state: 'outbid' });
    expect(await bidById(ravi.token, r.id)).toMatchObject({ state: 'success', timestamp: r.at });
    await expectBalances([[asha, 300], [ravi, 400], [chen, 1000]]);

    // Ravi cancels too: Asha still cannot pay, Ravi and Chen have cancelled on this product (Chen's
    // earlier ₹650 would otherwise be the best covered bid). Nobody leads.
    const second = await cancel(ravi.token, r.id);
    expect(second.json()).toEqual({ message: 'Bid cancelled and amount refunded successfully!', wallet_balance: 1000, highest_bid: 0 });
    expect(await bidById(chen.token, cEarly.id)).toMatchObject({ state: 'outbid' });
    expect(await bidById(asha.token, a.id)).toMatchObject({ state: 'outbid' });
    expect(await highestOf(asha.token, p!)).toBe(0);
    await expectBalances([[asha, 300], [ravi, 1000], [chen, 1000]]);
    expect((await txsOf(chen.token)).filter((t) => t.type === 'bid').map((t) => t.amount)).toEqual([900, 650]);

    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 300_000, balances: 230_000, held: 70_000, paid: 0 });
  });

  it('between equal outbid amounts the earliest placed is reinstated', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q] } = await createAuction(app, admin.token, { now: clock.t, products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const dev = await richBidder(app, 1000, [auctionId]);
    const eva = await richBidder(app, 1000, [auctionId]);

    const a = await place(asha.token, p!, 500);
    const r = await place(ravi.token, p!, 600);
    const aq = await place(asha.token, q!, 700);
    expect((await cancel(ravi.token, r.id)).json().highest_bid).toBe(0); // Asha's ₹500 not covered (₹300 free).
    const d = await place(dev.token, p!, 500); // Same amount as Asha's, placed later.
    const e = await place(eva.token, p!, 550);
    expect((await cancel(asha.token, aq.id)).json()).toMatchObject({ wallet_balance: 1000, highest_bid: 0 });

    expect((await cancel(eva.token, e.id)).json().highest_bid).toBe(500);
    expect(await bidById(asha.token, a.id)).toMatchObject({ state: 'success', timestamp: a.at });
    expect(await bidById(dev.token, d.id)).toMatchObject({ state: 'outbid' });
    await expectBalances([[asha, 500], [ravi, 1000], [dev, 1000], [eva, 1000]]);
    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 400_000, balances: 350_000, held: 50_000 });
  });

  it('never reinstates a deactivated bidder', async () => {
    const owner = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, owner.token, { now: clock.t });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const a = await place(asha.token, p!, 300);
    const r = await place(ravi.token, p!, 400);
    expect((await app.ctx.commands.run((tx) => setUserStatus(tx, { userId: asha.user.id, status: 'inactive' }, Date.now()))).ok).toBe(true);
    expect((await cancel(ravi.token, r.id)).json()).toMatchObject({ wallet_balance: 1000, highest_bid: 0 });
    expect(await highestOf(ravi.token, p!)).toBe(0);
    const rows = (await call(app, 'GET', `/api/bids?product_key=${p}`, undefined, owner.token)).json();
    expect(rows.map((b: { bid_id: number; state: string }) => [b.bid_id, b.state])).toEqual([[r.id, 'rolledback'], [a.id, 'outbid']]);
    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 200_000, balances: 200_000, held: 0 });
  });
});

describe('4. settlement', () => {
  it('leaders win and their money stays taken; losers were refunded; unsold products go back; later bids are refused', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p1, p2, p3] } = await createAuction(app, admin.token, { now: clock.t, products: 3, endsIn: 5 * HOUR });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const a1 = await place(asha.token, p1!, 300);
    const r1 = await place(ravi.token, p1!, 400.5);
    const a2 = await place(asha.token, p2!, 500);
    await expectBalances([[asha, 500], [ravi, 599.5]]);

    clock.advance(HOUR);
    const settledAt = clock.t;
    const res = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Auction settled successfully!', sold: [{ product_id: p1, amount: 400.5 }, { product_id: p2, amount: 500 }], unsold: [{ id: p3, reason: 'NO_BIDS' }] });

    expect(await bidById(ravi.token, r1.id)).toMatchObject({ state: 'won', amount: 400.5 });
    expect(await bidById(asha.token, a2.id)).toMatchObject({ state: 'won', amount: 500 });
    expect(await bidById(asha.token, a1.id)).toMatchObject({ state: 'outbid' });
    await expectBalances([[asha, 500], [ravi, 599.5]]);
    // The hold is released and the price taken as a payment: the balance does not move (docs/money.md#ledger-kinds).
    expect((await txsOf(ravi.token)).map((t) => [t.type, t.kind, t.amount])).toEqual([
      ['bid', 'payment', 400.5], ['refund', 'release', 400.5], ['bid', 'hold', 400.5], ['topup', 'topup', 1000],
    ]);

    const listed = (await call(app, 'GET', '/api/auctions', undefined, asha.token)).json();
    expect(listed).toEqual([expect.objectContaining({ id: auctionId, status: 'settled', valid_until: iso(settledAt), product_ids: [p1, p2], product_count: 2 })]);
    expect((await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, asha.token)).json()).toEqual([
      expect.objectContaining({ id: p1, status: 'sold', highest_bid: 400.5 }),
      expect.objectContaining({ id: p2, status: 'sold', highest_bid: 500 }),
    ]);
    const unassigned = (await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token)).json();
    expect(unassigned).toEqual([expect.objectContaining({ id: p3, auction_id: null, status: 'available', highest_bid: 0 })]);
    expect(await highestOf(asha.token, p1!)).toBe(400.5);

    // After settlement: sold → PRODUCT_SOLD (recorded), unsold → not in an auction, register → AUCTION_SETTLED.
    expectError(await bid(app, asha.token, p1!, 900), 409, 'PRODUCT_SOLD');
    expect((await bidsOf(asha.token))[0]).toMatchObject({ product_id: p1, amount: 900, state: 'failed', reason: 'PRODUCT_SOLD' });
    expectError(await bid(app, asha.token, p3!, 100), 409, 'PRODUCT_NOT_AVAILABLE');
    expectError(await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, asha.token), 409, 'AUCTION_SETTLED');
    expectError(await cancel(ravi.token, r1.id), 409, 'BID_NOT_ACTIVE');
    const before = await expectMoneyInvariant(app);
    expectError(await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expect(await expectMoneyInvariant(app)).toEqual(before);
    await expectBalances([[asha, 500], [ravi, 599.5]]);
    expect(before).toMatchObject({ topups: 200_000, balances: 109_950, held: 0, paid: 90_050 });
  });
});

describe('5. the end of an auction', () => {
  it('bids from valid_until on are AUCTION_ENDED (recorded, not debited) and the leader can no longer cancel', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { now: clock.t, endsIn: HOUR });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const a = await place(asha.token, p!, 300);
    clock.advance(HOUR - 2 * SECOND);
    expect((await call(app, 'GET', `/api/time-left?product_key=${p}`, undefined, ravi.token)).json()).toMatchObject({ seconds_left: 1, ended: false });

    clock.advance(SECOND); // exactly valid_until
    expectError(await bid(app, ravi.token, p!, 400), 409, 'AUCTION_ENDED');
    clock.advance(HOUR);
    expectError(await bid(app, ravi.token, p!, 500), 409, 'AUCTION_ENDED');
    expect((await bidsOf(ravi.token)).map((b) => [b.amount, b.state, b.reason])).toEqual([[500, 'failed', 'AUCTION_ENDED'], [400, 'failed', 'AUCTION_ENDED']]);
    expectError(await cancel(asha.token, a.id), 409, 'AUCTION_ENDED');
    expect(await bidById(asha.token, a.id)).toMatchObject({ state: 'success' });
    await expectBalances([[asha, 700], [ravi, 1000]]);
    expect(await highestOf(ravi.token, p!)).toBe(300);
    expect((await call(app, 'GET', '/api/auctions', undefined, ravi.token)).json()[0]).toMatchObject({ id: auctionId, status: 'ended' });
    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 200_000, balances: 170_000, held: 30_000, paid: 0 });
  });
});

describe('6. deletions release holds', () => {
  it('deleting an auction refunds every leader; bids and ledger rows stay readable; products return to unassigned', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p1, p2] } = await createAuction(app, admin.token, { now: clock.t, products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    await place(ravi.token, p1!, 300);
    const a1 = await place(asha.token, p1!, 400);
    const r2 = await place(ravi.token, p2!, 500);
    await expectBalances([[asha, 600], [ravi, 500]]);

    clock.advance(SECOND);
    const res = await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    await expectBalances([[asha, 1000], [ravi, 1000]]);
    expect(await bidById(asha.token, a1.id)).toMatchObject({ state: 'rolledback', amount: 400, product_name: `Product ${p1}` });
    expect(await bidById(ravi.token, r2.id)).toMatchObject({ state: 'rolledback', amount: 500 });
    expect((await bidsOf(ravi.token)).map((b) => b.state)).toEqual(['rolledback', 'outbid']);
    const [refund] = await txsOf(asha.token);
    expect(refund).toMatchObject({ type: 'refund', amount: 400, timestamp: iso(clock.t), meta: { product_id: p1 } });
    expect(refund!.meta.notes).toMatch(/deleted/i);
    // Ravi's ₹300 was refunded when he was outbid, his ₹500 now: one refund each.
    expect((await txsOf(ravi.token)).filter((t) => t.type === 'refund').map((t) => t.amount)).toEqual([500, 300]);

    expect((await call(app, 'GET', '/api/auctions', undefined, asha.token)).json()).toEqual([]);
    expectError(await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, asha.token), 404, 'NOT_FOUND');
    expectError(await bid(app, asha.token, p1!, 900), 409, 'PRODUCT_NOT_AVAILABLE');
    expectError(await cancel(asha.token, a1.id), 409, 'BID_NOT_ACTIVE');
    // Back with its admin as a draft: only they read it, with no highest bid.
    expectError(await call(app, 'GET', `/api/highest-bid?product_key=${p1!}`, undefined, asha.token), 404, 'NOT_FOUND');
    expect(await highestOf(admin.token, p1!)).toBe(0);
    const unassigned = (await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token)).json();
    expect(unassigned.map((x: { id: string }) => x.id).sort()).toEqual([p1, p2].sort());
    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 200_000, balances: 200_000, held: 0, paid: 0 });
  });

  it('deleting a product that holds the lead refunds it; a settled auction cannot be deleted', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p1, p2] } = await createAuction(app, admin.token, { now: clock.t, products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const a1 = await place(asha.token, p1!, 250);
    await place(asha.token, p2!, 350);
    expect((await call(app, 'DELETE', `/api/admin/product/${p1}`, undefined, admin.token)).statusCode).toBe(200);
    expect(await balanceOf(app, asha.token)).toBe(650);
    expect(await bidById(asha.token, a1.id)).toMatchObject({ state: 'rolledback' });
    expect((await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, asha.token)).json().map((x: { id: string }) => x.id)).toEqual([p2]);

    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    expectError(await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expect(await balanceOf(app, asha.token)).toBe(650);
    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 100_000, balances: 65_000, held: 0, paid: 35_000 });
  });
});

describe('7. equal amounts', () => {
  it('the second of two equal bids is BID_TOO_LOW, recorded and not debited; the first keeps the lead', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { now: clock.t });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const a = await place(asha.token, p!, 500);
    const res = await bid(app, ravi.token, p!, 500);
    expect(expectError(res, 409, 'BID_TOO_LOW').error).toBe('Bid must be higher than current highest bid of ₹500');
    expect(await bidsOf(ravi.token)).toEqual([expect.objectContaining({ amount: 500, state: 'failed', reason: 'BID_TOO_LOW' })]);
    expect(await bidById(asha.token, a.id)).toMatchObject({ state: 'success' });
    await expectBalances([[asha, 500], [ravi, 1000]]);
    expect(await highestOf(ravi.token, p!)).toBe(500);
    const productBids = (await call(app, 'GET', `/api/bids?product_key=${p}`, undefined, admin.token)).json();
    expect(productBids.map((b: { bidder: string; state: string }) => [b.bidder, b.state])).toEqual([[ravi.username, 'failed'], [asha.username, 'success']]);
    expect(await expectMoneyInvariant(app)).toMatchObject({ topups: 200_000, balances: 150_000, held: 50_000, paid: 0 });
  });
});
