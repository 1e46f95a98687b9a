import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { balanceOf, bid, call, createAuction, expectError, expectMoneyInvariant, makeApp, richBidder, signUpAdmin } from '../../test/helpers.js';

let app: App;
beforeEach(async () => { app = await makeApp(); });
afterEach(async () => { await app.close(); });

describe('escrow: a bid holds its amount only while it leads', () => {
  it('outbid releases the money at once; raising your own lead uses your own hold', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);

    const first = await bid(app, asha.token, p!, 400);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ message: 'Bid placed successfully!', highest_bid: 400, wallet_balance: 600, bid: { status: 'success', amount: 400 } });
    expect((await bid(app, ravi.token, p!, 500)).json()).toMatchObject({ highest_bid: 500, wallet_balance: 500 });
    expect(await balanceOf(app, asha.token)).toBe(1000);
    // Asha raises above Ravi, then raises her own lead with money her lead already holds.
    expect((await bid(app, asha.token, p!, 600)).json()).toMatchObject({ wallet_balance: 400 });
    expect((await bid(app, asha.token, p!, 1000)).json()).toMatchObject({ wallet_balance: 0, highest_bid: 1000 });
    expect(await balanceOf(app, ravi.token)).toBe(1000);
    expectError(await bid(app, ravi.token, p!, 1000), 409, 'BID_TOO_LOW');
    expectError(await bid(app, ravi.token, p!, 1001), 402, 'INSUFFICIENT_FUNDS');

    const statuses = (await call(app, 'GET', '/api/user-bids', undefined, asha.token)).json().map((b: { state: string }) => b.state);
    expect(statuses).toEqual(['success', 'outbid', 'outbid']);
    const ravisBids = (await call(app, 'GET', '/api/user-bids', undefined, ravi.token)).json();
    expect(ravisBids.map((b: { state: string; reason: string | null }) => [b.state, b.reason])).toEqual([
      ['failed', 'INSUFFICIENT_FUNDS'], ['failed', 'BID_TOO_LOW'], ['outbid', null],
    ]);
    await expectMoneyInvariant(app);
  });
});

describe('history and bodiless calls', () => {
  it('keeps a bidder’s bids of a deleted auction readable, and answers POST /wallet without a body', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, asha.token, p!, 250)).statusCode).toBe(201);
    expect((await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token)).statusCode).toBe(200);
    const bids = await call(app, 'GET', `/api/user-bids/auction/${auctionId}`, undefined, asha.token);
    expect(bids.statusCode).toBe(200);
    expect(bids.json()).toEqual([expect.objectContaining({ auction_id: auctionId, status: 'rolledback', amount: 250 })]);
    expectError(await call(app, 'GET', '/api/user-bids/auction/never-existed', undefined, asha.token), 404, 'NOT_FOUND');
    const wallet = await app.inject({ method: 'POST', url: '/api/wallet', headers: { authorization: `Bearer ${asha.token}` } });
    expect(wallet.statusCode, wallet.body).toBe(200);
    expect(wallet.json()).toEqual({ wallet_balance: 1000, on_hold: 0 });
    await expectMoneyInvariant(app);
  });
});
