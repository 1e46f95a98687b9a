/**
 * The bidder's side of the API, the wallet: balance, top-ups and the ledger.
 * Shared setup (a fresh app per test on a movable clock) in test/bidder-helpers.ts.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HOUR, balanceOf, bid, call, expectError, expectMoneyInvariant, richBidder, signUpAdmin, signUpUser } from '../../test/helpers.js';
import { type TxJson, app, auction, auctionOver, clock, iso, myBids, myTransactions, namedProduct, settle, withApp } from '../../test/bidder-helpers.js';

withApp();

const TOPUP_INVALID = 'Enter an amount between ₹10 and ₹1,00,000';

describe('POST /api/wallet', () => {
  it('returns the caller’s balance; a username or user_id naming the caller is fine, anyone else is 403', async () => {
    const asha = await richBidder(app, 750);
    const ravi = await signUpUser(app);
    for (const body of [{}, { username: asha.username }, { username: asha.username.toUpperCase() }, { user_id: asha.user.id }, { user_id: asha.username }]) {
      const res = await call(app, 'POST', '/api/wallet', body, asha.token);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json()).toEqual({ wallet_balance: 750, on_hold: 0 });
    }
    expectError(await call(app, 'POST', '/api/wallet', { username: ravi.username }, asha.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/wallet', { user_id: ravi.user.id }, asha.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/wallet', { username: 'nobody_here' }, asha.token), 403, 'FORBIDDEN');
    expect(await balanceOf(app, ravi.token)).toBe(0);
  });
});

describe('POST /api/wallet/topup', () => {
  it('accepts ₹10 and ₹1,00,000 inclusive and two decimals exactly', async () => {
    const u = await signUpUser(app);
    const min = await call(app, 'POST', '/api/wallet/topup', { amount: 10 }, u.token);
    expect(min.statusCode, min.body).toBe(200);
    expect(min.json()).toEqual({
      message: 'Added ₹10 to your wallet', wallet_balance: 10,
      transaction: { _id: expect.any(String), type: 'topup', kind: 'topup', amount: 10, timestamp: iso(clock.t), meta: { notes: null, product_id: null, product_name: null, buy_now: false } },
    });
    const max = await call(app, 'POST', '/api/wallet/topup', { amount: 100_000 }, u.token);
    expect(max.json()).toMatchObject({ message: 'Added ₹1,00,000 to your wallet', wallet_balance: 100_010 });
    expect((await call(app, 'POST', '/api/wallet/topup', { amount: 10.55 }, u.token)).json()).toMatchObject({ wallet_balance: 100_020.55, transaction: { amount: 10.55 } });
    // Paise, not floats: 10.1 + 10.2 is 20.3 exactly.
    const v = await signUpUser(app);
    await call(app, 'POST', '/api/wallet/topup', { amount: 10.1 }, v.token);
    expect((await call(app, 'POST', '/api/wallet/topup', { amount: 10.2 }, v.token)).json().wallet_balance).toBe(20.3);
    expect(await balanceOf(app, u.token)).toBe(100_020.55);
    await expectMoneyInvariant(app);
  });

  it.each([
    ['9.99', 9.99], ['100000.01', 100_000.01], ['0', 0], ['-10', -10], ['3 decimals', 10.555], ['missing', undefined], ['huge', 1e15],
  ])('%s → 400 with the spec sentence', async (_label, amount) => {
    const u = await signUpUser(app);
    const err = expectError(await call(app, 'POST', '/api/wallet/topup', amount === undefined ? {} : { amount }, u.token), 400, 'VALIDATION');
    expect(err.error).toBe(TOPUP_INVALID);
    expect(err.field).toBe('amount');
    expect(await balanceOf(app, u.token)).toBe(0);
    expect(await myTransactions(u.token)).toEqual([]);
  });

  it.each([['"500"', '500'], ['null', null], ['an array', [500]], ['an object', { amount: 500 }]])('amount as %s → 400 VALIDATION', async (_label, amount) => {
    const u = await signUpUser(app);
    expect(expectError(await call(app, 'POST', '/api/wallet/topup', { amount }, u.token), 400, 'VALIDATION').field).toBe('amount');
    expect(await balanceOf(app, u.token)).toBe(0);
  });
});

describe('GET /api/wallet/transactions', () => {
  it('newest first: string _id, type, positive amount, notes, product id and product name', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    clock.advance(1000);
    await bid(app, asha.token, p!, 400);
    clock.advance(1000);
    await bid(app, ravi.token, p!, 500);
    const res = await call(app, 'GET', '/api/wallet/transactions', undefined, asha.token);
    expect(res.statusCode).toBe(200);
    const txs: TxJson[] = res.json().transactions;
    expect(txs.map((t) => [t.type, t.amount, t.meta.product_id, t.meta.product_name, t.timestamp])).toEqual([
      ['refund', 400, p, `Product ${p}`, iso(clock.t)], ['bid', 400, p, `Product ${p}`, iso(clock.t - 1000)], ['topup', 1000, null, null, iso(clock.t - 2000)],
    ]);
    for (const t of txs) {
      expect(typeof t._id).toBe('string');
      expect(t._id).toMatch(/^\d+$/);
      expect(Object.keys(t).sort()).toEqual(['_id', 'amount', 'kind', 'meta', 'timestamp', 'type']);
      expect(Object.keys(t.meta).sort()).toEqual(['buy_now', 'notes', 'product_id', 'product_name']);
    }
    expect(Number(txs[0]!._id)).toBeGreaterThan(Number(txs[1]!._id));
    expect(txs[0]!.meta.notes).toEqual(expect.stringContaining('Outbid'));
    // Only the caller's own rows.
    expect((await myTransactions(ravi.token)).map((t) => t.type)).toEqual(['bid', 'topup']);
  });

  it('the signed amounts (top-ups and refunds +, holds −) sum to the balance through outbids, cancels, reinstatements and a sale', async () => {
    const admin = await signUpAdmin(app);
    const lamp = await namedProduct(admin.token, 'Brass Lamp');
    const vase = await namedProduct(admin.token, 'Blue Vase');
    const auctionId = await auctionOver(admin.token, [lamp, vase]);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const placed = (res: LightMyRequestResponse) => expect(res.statusCode, res.body).toBe(201);
    expect((await call(app, 'POST', '/api/wallet/topup', { amount: 250.75 }, asha.token)).statusCode).toBe(200);
    placed(await bid(app, asha.token, lamp, 300));
    placed(await bid(app, ravi.token, lamp, 400.5));
    const raviLead = (await myBids(ravi.token))[0]!.bid_id;
    placed(await bid(app, asha.token, vase, 120.25));
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: raviLead }, ravi.token)).statusCode).toBe(200);
    placed(await bid(app, asha.token, vase, 150));
    expectError(await bid(app, asha.token, vase, 100_000), 402, 'INSUFFICIENT_FUNDS');
    clock.advance(3 * HOUR);
    expect((await settle(admin.token, auctionId)).statusCode).toBe(200);

    for (const who of [asha, ravi]) {
      const txs = await myTransactions(who.token);
      const paise = txs.reduce((sum, t) => sum + (t.type === 'bid' ? -1 : 1) * Math.round(t.amount * 100), 0);
      expect(paise / 100).toBe(await balanceOf(app, who.token));
      for (const t of txs.filter((x) => x.meta.product_id !== null)) {
        expect(t.meta.product_name).toBe(t.meta.product_id === lamp ? 'Brass Lamp' : 'Blue Vase');
      }
    }
    // Asha: 1000 + 250.75, won the lamp (reinstated at ₹300 after Ravi's cancel) and the vase at ₹150.
    expect(await balanceOf(app, asha.token)).toBe(800.75);
    expect(await balanceOf(app, ravi.token)).toBe(1000);
    await expectMoneyInvariant(app);
  });
});
