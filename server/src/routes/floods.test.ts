/**
 * Floods (docs/bidding.md#cancelling-a-bid) through the HTTP API on both stores, with limits off (the
 * test default) so that only the rules hold them back: one attacker bidding one step above a leader
 * and cancelling, over and over. Each cycle used to cost the leader an outbid and a reinstatement, two
 * ledger rows and (late in a soft-close auction) an extension of the end, for free.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { CANCELS_PER_AUCTION, CANCELS_PER_LOT } from '../domain/cancelling.js';
import { bid, call, expectError, expectMoneyInvariant, makeApp, makeClock, richBidder, signUpAdmin, uniqueName } from '../test/helpers.js';

let app: App;
let clock: ReturnType<typeof makeClock>;
afterEach(async () => { await app?.close(); });

async function start() {
  clock = makeClock();
  app = await makeApp({ autoSettle: false }, { now: clock.now });
  return signUpAdmin(app);
}

/** An auction of `products` lots ending `endsIn` ms from the clock's now, with soft close `softClose` seconds. */
async function auction(admin: { token: string }, o: { products?: number; endsIn: number; softClose?: number }) {
  const productIds: string[] = [];
  for (let i = 0; i < (o.products ?? 1); i++) {
    const id = uniqueName('F');
    expect((await call(app, 'POST', '/api/admin/product', { id, name: `Lamp ${id}`, description: 'Brass' }, admin.token)).statusCode).toBe(201);
    productIds.push(id);
  }
  const auctionId = uniqueName('FA');
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: auctionId, name: `Sale ${auctionId}`, valid_until: new Date(clock.t + o.endsIn).toISOString(), product_ids: productIds,
    ...(o.softClose === undefined ? {} : { soft_close_s: o.softClose }),
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  return { auctionId, productIds, validUntil: clock.t + o.endsIn };
}

const cancel = (token: string, bidId: number) => call(app, 'POST', '/api/rollback-bid', { bid_id: bidId }, token);
const bidId = (res: Awaited<ReturnType<typeof bid>>) => res.json<{ bid: { bid_id: number } }>().bid.bid_id;

async function ledgerRows(token: string) {
  const res = await call(app, 'GET', '/api/wallet/transactions?limit=100', undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ transactions: unknown[] }>().transactions.length;
}

interface Notice { kind: string; created_at: string; link: string }
async function notices(token: string) {
  const res = await call(app, 'GET', '/api/notifications?limit=100', undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ notifications: Notice[] }>().notifications;
}
const STANDING = ['outbid', 'reinstated'];
/** How many standing notices (outbid, reinstated) each lot and clock minute holds. */
function perLotMinute(list: Notice[]): number[] {
  const counts = new Map<string, number>();
  for (const n of list.filter((x) => STANDING.includes(x.kind))) {
    const key = `${n.link} ${Math.floor(Date.parse(n.created_at) / 60_000)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.values()];
}

async function lot(token: string, productId: string) {
  const res = await call(app, 'GET', `/api/products/${productId}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ bid_count: number; highest_bid: number; auction: { valid_until: string; original_valid_until: string } }>();
}

describe('the bid-and-cancel loop', () => {
  it('an attacker one step above a leader, cancelling every cycle: cancels stop at the rule, the leader hears once per lot per minute, the leader’s ledger and the bid count stop growing, each cancel undoes its extension', async () => {
    const admin = await start();
    // Two minutes left and a two-minute soft close: every bid that takes the lead moves the end.
    const { auctionId, productIds: [p], validUntil } = await auction(admin, { endsIn: 120_000, softClose: 120 });
    const leader = await richBidder(app, 1000, [auctionId]);
    const attacker = await richBidder(app, 100_000, [auctionId]);
    expect((await bid(app, leader.token, p!, 100)).statusCode).toBe(201);
    const leaderRowsBefore = await ledgerRows(leader.token);

    let cancelled = 0;
    for (let cycle = 0; cycle < 60; cycle++) {
      // 45 s a cycle, inside the soft-close window: a cancel moves the end back to no less than 60 s after it.
      if (cycle > 0) clock.advance(45_000);
      const highest = (await lot(attacker.token, p!)).highest_bid;
      const placed = await bid(app, attacker.token, p!, highest + 1);
      if (placed.statusCode !== 201) break; // the auction has ended
      const res = await cancel(attacker.token, bidId(placed));
      if (res.statusCode === 200) cancelled++;
      else expectError(res, 409, 'CANCEL_NOT_ALLOWED');
    }

    expect(cancelled).toBe(CANCELS_PER_LOT);
    // The leader: per accepted cancel one refund (outbid) and one hold (reinstated); then outbid for good.
    expect(await ledgerRows(leader.token)).toBe(leaderRowsBefore + 2 * CANCELS_PER_LOT + 1);
    const after = await lot(leader.token, p!);
    // The leader's bid, the one that stood and its two raises before the end (cancelled bids do not count).
    expect(after.bid_count).toBe(1 + 1 + 2);
    const end = Date.parse(after.auction.valid_until);
    // A cancel undid the extension its bid made (to no less than 60 s after it); only the bid that
    // stood, the (CANCELS_PER_LOT + 1)th at 45 s a cycle, moved the end two minutes past it.
    expect(end).toBe(validUntil - 120_000 + CANCELS_PER_LOT * 45_000 + 120_000);
    // Each minute's outbids and reinstatements are one notice, saying the latest standing.
    const told = await notices(leader.token);
    expect(perLotMinute(told)).toEqual([1, 1, 1]);
    expect(told.filter((n) => STANDING.includes(n.kind)).map((n) => n.kind)).toEqual(['outbid', 'reinstated', 'reinstated']);
    await expectMoneyInvariant(app);
  });

  it('as fast as it goes (one minute): the leader gets one notice, the latest standing', async () => {
    const admin = await start();
    const { auctionId, productIds: [p] } = await auction(admin, { endsIn: 3600_000 });
    const leader = await richBidder(app, 1000, [auctionId]);
    const attacker = await richBidder(app, 100_000, [auctionId]);
    expect((await bid(app, leader.token, p!, 100)).statusCode).toBe(201);
    for (let cycle = 0; cycle < 20; cycle++) {
      const placed = await bid(app, attacker.token, p!, 101 + cycle);
      if (placed.statusCode === 201) await cancel(attacker.token, bidId(placed));
    }
    const told = await notices(leader.token);
    expect(told.map((n) => n.kind)).toEqual(['outbid']);
    await expectMoneyInvariant(app);
  });
});

describe('cancelling: at most CANCELS_PER_LOT bids per lot and CANCELS_PER_AUCTION per auction', () => {
  it('the next cancel is 409 CANCEL_NOT_ALLOWED and moves nothing; another auction is not affected', async () => {
    const admin = await start();
    const { auctionId, productIds: [a, b, c] } = await auction(admin, { products: 3, endsIn: 3600_000 });
    const other = await auction(admin, { endsIn: 3600_000 });
    const asha = await richBidder(app, 10_000, [auctionId, other.auctionId]);
    let amount = 100;
    const leadAndCancel = async (productId: string) => cancel(asha.token, bidId(await bid(app, asha.token, productId, amount++)));

    for (let i = 0; i < CANCELS_PER_LOT; i++) expect((await leadAndCancel(a!)).statusCode).toBe(200);
    const lead = await bid(app, asha.token, a!, amount++);
    const refused = expectError(await cancel(asha.token, bidId(lead)), 409, 'CANCEL_NOT_ALLOWED');
    expect(refused.error).toBe(`You have already cancelled ${CANCELS_PER_LOT} bids on Lamp ${a!}; this bid can no longer be cancelled`);
    // The bid stands and holds its amount.
    expect((await lot(asha.token, a!)).highest_bid).toBe(amount - 1);
    expect((await call(app, 'POST', '/api/wallet', {}, asha.token)).json()).toMatchObject({ on_hold: amount - 1 });

    // Other lots of the auction, up to CANCELS_PER_AUCTION in all.
    const more = CANCELS_PER_AUCTION - CANCELS_PER_LOT;
    for (let i = 0; i < more; i++) expect((await leadAndCancel(i < CANCELS_PER_LOT ? b! : c!)).statusCode).toBe(200);
    expect(expectError(await leadAndCancel(c!), 409, 'CANCEL_NOT_ALLOWED').error).toBe(`You have already cancelled ${CANCELS_PER_AUCTION} bids in this auction; this bid can no longer be cancelled`);
    // Another auction: a budget of its own.
    expect((await leadAndCancel(other.productIds[0]!)).statusCode).toBe(200);
    await expectMoneyInvariant(app);
  });
});
