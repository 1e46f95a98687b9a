/**
 * What the spec's own clients read (docs/money.md#bid-statuses-on-the-wire, docs/money.md#times): a bid's
 * `status` within the spec's three with the full status in `state`, times in TIMEZONE's offset that
 * survive a form that sends back their first 16 characters, whole lists when no page is asked for, and a
 * bid by a name two lots share that goes to the lot the caller can bid on.
 */
import { describe, expect, it } from 'vitest';
import { WHOLE_LIST_MAX } from '@auction/shared';
import { app, auctionOver, clock, highest, myBids, namedProduct, settle, withApp } from '../test/bidder-helpers.js';
import { bid, call, createAuction, expectError, expectMoneyInvariant, HOUR, makeApp, makeClock, richBidder, signUpAdmin } from '../test/helpers.js';

withApp();

interface WireBid { bid_id: number; status: string; state: string; amount: number; timestamp: string }
const SPEC_STATUSES = ['success', 'failed', 'rolledback'];

async function lotWithReserve(adminToken: string, reserve: number) {
  const id = `R${Math.random().toString(36).slice(2, 10)}`;
  const res = await call(app, 'POST', '/api/admin/product', { id, name: `Reserve ${id}`, description: 'Held back', reserve_price: reserve }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return id;
}

describe('bid statuses on the wire', () => {
  it('keeps `status` within the spec’s three on every route and gives the full status in `state`', async () => {
    const admin = await signUpAdmin(app);
    const lot = await namedProduct(admin.token, 'Walnut desk');
    const other = await namedProduct(admin.token, 'Oak chair');
    const held = await lotWithReserve(admin.token, 1000);
    const auctionId = await auctionOver(admin.token, [lot, other, held]);
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravi = await richBidder(app, 5000, [auctionId]);

    const placed = await bid(app, asha.token, lot, 100);
    expect(placed.json<{ bid: WireBid }>().bid).toMatchObject({ status: 'success', state: 'success' });
    expect((await bid(app, ravi.token, lot, 150)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, lot, 120)).statusCode).toBe(409);
    const cancelled = (await bid(app, asha.token, other, 40)).json<{ bid: WireBid }>().bid;
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: cancelled.bid_id }, asha.token)).statusCode).toBe(200);
    expect((await bid(app, asha.token, held, 200)).statusCode).toBe(201);
    expect((await settle(admin.token, auctionId)).statusCode).toBe(200);

    const ashaBids = await myBids(asha.token) as unknown as WireBid[];
    const raviBids = await myBids(ravi.token) as unknown as WireBid[];
    const pairs = (bids: WireBid[]) => bids.map((b) => [b.amount, b.status, b.state]);
    expect(pairs(ashaBids)).toEqual([[200, 'failed', 'unsold'], [40, 'rolledback', 'rolledback'], [100, 'failed', 'outbid']]);
    expect(pairs(raviBids)).toEqual([[120, 'failed', 'failed'], [150, 'success', 'won']]);
    const inAuction = (await call(app, 'GET', `/api/user-bids/auction/${auctionId}`, undefined, ravi.token)).json<WireBid[]>();
    expect(pairs(inAuction)).toEqual(pairs(raviBids));

    // The admin's revenue as a spec client sums it: the amounts of `success` bids, still ₹150 after settling.
    const lotBids = (await call(app, 'GET', `/api/bids?product_key=${lot}`, undefined, admin.token)).json<WireBid[]>();
    expect(lotBids.map((b) => [b.amount, b.status, b.state])).toEqual([[120, 'failed', 'failed'], [150, 'success', 'won'], [100, 'failed', 'outbid']]);
    expect(lotBids.filter((b) => b.status === 'success').reduce((s, b) => s + b.amount, 0)).toBe(150);

    const history = (await call(app, 'GET', `/api/products/${lot}`, undefined, asha.token)).json<{ bids: WireBid[] }>().bids;
    expect(history.length).toBeGreaterThan(0);
    for (const b of [...ashaBids, ...raviBids, ...lotBids, ...history]) expect(SPEC_STATUSES).toContain(b.status);
    expect(history.find((b) => b.amount === 150)).toMatchObject({ status: 'success', state: 'won' });
    await expectMoneyInvariant(app);
  });
});

describe('times in TIMEZONE’s offset', () => {
  const END = '2030-12-08T19:42';

  it('answers an offset-less end in IST as written, and an edit that sends back its first 16 characters keeps the instant', async () => {
    const admin = await signUpAdmin(app);
    const lot = await namedProduct(admin.token, 'Brass bell');
    const created = await call(app, 'POST', '/api/admin/auction', { id: 'TZ1', name: 'Evening sale', valid_until: END, product_ids: [lot] }, admin.token);
    expect(created.statusCode, created.body).toBe(201);
    const instant = Date.parse('2030-12-08T14:12:00.000Z');
    expect(created.json<{ auction: { valid_until: string } }>().auction.valid_until).toBe('2030-12-08T19:42:00.000+05:30');

    for (let save = 0; save < 3; save++) {
      const read = (await call(app, 'GET', '/api/admin/auction/TZ1', undefined, admin.token)).json<{ name: string; valid_until: string }>();
      expect(Date.parse(read.valid_until)).toBe(instant);
      const edited = await call(app, 'PUT', '/api/admin/auction/TZ1', { name: read.name, valid_until: read.valid_until.slice(0, 16), product_ids: [lot] }, admin.token);
      expect(edited.statusCode, edited.body).toBe(200);
    }
    const listed = (await call(app, 'GET', '/api/auctions', undefined, admin.token)).json<{ id: string; valid_until: string }[]>();
    expect(listed.find((a) => a.id === 'TZ1')?.valid_until).toBe('2030-12-08T19:42:00.000+05:30');
    const left = (await call(app, 'GET', `/api/time-left?product_key=${lot}`, undefined, admin.token)).json<{ valid_until: string }>();
    expect(left.valid_until).toBe('2030-12-08T19:42:00.000+05:30');
  });

  it('stamps bids, the ledger and the server time in the same offset', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [lot] } = await createAuction(app, admin.token, { now: clock.t });
    const u = await richBidder(app, 500, [auctionId]);
    expect((await bid(app, u.token, lot!, 10)).statusCode).toBe(201);
    const stamp = new Date(clock.t + 5.5 * HOUR).toISOString().slice(0, 23) + '+05:30';
    expect(((await myBids(u.token)) as unknown as WireBid[])[0]!.timestamp).toBe(stamp);
    const ledger = (await call(app, 'GET', '/api/wallet/transactions', undefined, u.token)).json<{ transactions: { timestamp: string }[] }>();
    expect(ledger.transactions.every((t) => t.timestamp === stamp)).toBe(true);
    expect((await call(app, 'GET', '/api/time')).json<{ server_time: string }>().server_time).toBe(stamp);
  });

  it('follows a zone’s daylight saving time (America/New_York)', async () => {
    const nyClock = makeClock(Date.parse('2030-01-10T12:00:00.000Z'));
    const ny = await makeApp({ autoSettle: false, timeZone: 'America/New_York' }, { now: nyClock.now });
    try {
      const admin = await signUpAdmin(ny);
      const { auctionId, productIds } = await createAuction(ny, admin.token, { now: nyClock.t });
      const edit = async (validUntil: string) => {
        const res = await call(ny, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Seasons', valid_until: validUntil, product_ids: productIds }, admin.token);
        expect(res.statusCode, res.body).toBe(200);
        return res.json<{ auction: { valid_until: string } }>().auction.valid_until;
      };
      expect(await edit('2030-02-01T09:30')).toBe('2030-02-01T09:30:00.000-05:00');
      expect(await edit('2030-07-01T09:30')).toBe('2030-07-01T09:30:00.000-04:00');
    } finally {
      await ny.close();
    }
  });
});

describe('whole lists when no page is asked for', () => {
  it('answers the whole ledger and every bid of a lot past 50 rows, and pages when asked', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [lot] } = await createAuction(app, admin.token, { now: clock.t });
    const a = await richBidder(app, 10, [auctionId]);
    const b = await richBidder(app, 10, [auctionId]);
    for (let i = 0; i < 59; i++) expect((await call(app, 'POST', '/api/wallet/topup', { amount: 100 }, a.token)).statusCode).toBe(200);
    const whole = (await call(app, 'GET', '/api/wallet/transactions', undefined, a.token)).json<{ transactions: unknown[]; next_before: string | null }>();
    expect(whole.transactions).toHaveLength(60);
    expect(whole.next_before).toBeNull();
    const paged = (await call(app, 'GET', '/api/wallet/transactions?limit=10', undefined, a.token)).json<{ transactions: unknown[]; next_before: string | null }>();
    expect(paged.transactions).toHaveLength(10);
    expect(paged.next_before).not.toBeNull();

    const topUpB = await call(app, 'POST', '/api/wallet/topup', { amount: 6000 }, b.token);
    expect(topUpB.statusCode).toBe(200);
    for (let i = 1; i <= 60; i++) expect((await bid(app, i % 2 ? a.token : b.token, lot!, i * 10)).statusCode).toBe(201);
    expect(await highest(a.token, lot!)).toBe(600);
    const all = (await call(app, 'GET', `/api/bids?product_key=${lot}`, undefined, a.token)).json<WireBid[]>();
    expect(all).toHaveLength(60);
    expect((await call(app, 'GET', `/api/bids?product_key=${lot}&limit=20`, undefined, a.token)).json<WireBid[]>()).toHaveLength(20);
    expect(WHOLE_LIST_MAX).toBeGreaterThanOrEqual(1000);
    await expectMoneyInvariant(app);
  });
});

describe('a bid by a name two lots share', () => {
  it('goes to the lot in the auction the bidder is registered for, and is refused only when that leaves more than one', async () => {
    const admin = await signUpAdmin(app);
    const first = await namedProduct(admin.token, 'Copper kettle');
    const second = await namedProduct(admin.token, 'Copper kettle');
    const third = await namedProduct(admin.token, 'Copper kettle');
    const a1 = await auctionOver(admin.token, [first]);
    const a2 = await auctionOver(admin.token, [second], 3 * HOUR);
    const a3 = await auctionOver(admin.token, [third], 4 * HOUR);
    const onlySecond = await richBidder(app, 1000, [a2]);
    const placed = await call(app, 'POST', '/api/bid', { product_name: 'Copper kettle', bid_amount: 100, user_id: onlySecond.username }, onlySecond.token);
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json<{ bid: { product_id: string } }>().bid.product_id).toBe(second);

    const two = await richBidder(app, 1000, [a1, a3]);
    expectError(await call(app, 'POST', '/api/bid', { product_name: 'Copper kettle', bid_amount: 100 }, two.token), 409, 'AMBIGUOUS_PRODUCT');
    const none = await richBidder(app, 1000);
    expectError(await call(app, 'POST', '/api/bid', { product_name: 'Copper kettle', bid_amount: 100 }, none.token), 409, 'AMBIGUOUS_PRODUCT');
    expect(await myBids(two.token)).toEqual([]);
    await expectMoneyInvariant(app);
  });
});
