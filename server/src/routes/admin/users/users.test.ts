import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../context.js';
import { call, createAuction, expectError, makeApp, richBidder, signUpAdmin, signUpUser } from '../../../test/helpers.js';
import { connect, eventually, listen } from '../../../test/live-helpers.js';

let app: App;
beforeEach(async () => { app = await makeApp(); });
afterEach(async () => { await app.close(); });

describe('the owner’s Users page', () => {
  it('lists bidders with balance, registrations, status and joined date; searches; owner only', async () => {
    const owner = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, owner.token);
    const asha = await richBidder(app, 1500.5, [auctionId]);
    const ravi = await signUpUser(app);
    const res = await call(app, 'GET', '/api/admin/users', undefined, owner.token);
    expect(res.statusCode).toBe(200);
    const users = res.json().users as Record<string, unknown>[];
    expect(users.map((u) => u.id)).toEqual([ravi.user.id, asha.user.id]);
    expect(users[1]).toEqual({
      id: asha.user.id, name: `Name ${asha.username}`, username: asha.username, mobile_number: '9876543210',
      wallet_balance: 1500.5, auctions_registered: 1, status: 'active', created_at: expect.stringMatching(/\+05:30$/),
    });
    const found = (await call(app, 'GET', `/api/admin/users?q=${asha.username.toUpperCase()}`, undefined, owner.token)).json().users;
    expect(found.map((u: { id: number }) => u.id)).toEqual([asha.user.id]);
    expect((await call(app, 'GET', '/api/admin/users?q=%25', undefined, owner.token)).json().users).toEqual([]);
    expect((await call(app, 'GET', '/api/admin/users?q=98765', undefined, owner.token)).json().users).toHaveLength(2);
    expectError(await call(app, 'GET', '/api/admin/users', undefined, other.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'GET', '/api/admin/users', undefined, asha.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'PATCH', `/api/admin/users/${asha.user.id}`, { status: 'inactive' }, other.token), 403, 'FORBIDDEN');
  });

  it('deactivation takes effect at once: tokens refused, login refused, socket closed; reactivation lets them sign in', async () => {
    const owner = await signUpAdmin(app);
    const asha = await signUpUser(app);
    const base = await listen(app);
    const socket = await connect(base, asha.token);
    let disconnected = false;
    socket.socket.on('disconnect', () => { disconnected = true; });
    const res = await call(app, 'PATCH', `/api/admin/users/${asha.user.id}`, { status: 'inactive' }, owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'User deactivated', user: { id: asha.user.id, status: 'inactive' } });
    expectError(await call(app, 'POST', '/api/wallet', {}, asha.token), 401, 'UNAUTHENTICATED');
    expectError(await call(app, 'POST', '/api/login', { username: asha.username, password: asha.password }), 403, 'ACCOUNT_INACTIVE');
    await eventually(() => expect(disconnected).toBe(true));
    expect((await call(app, 'PATCH', `/api/admin/users/${asha.user.id}`, { status: 'active' }, owner.token)).json().user.status).toBe('active');
    expect((await call(app, 'POST', '/api/login', { username: asha.username, password: asha.password })).statusCode).toBe(200);
  });

  it('deactivation releases the bidder\'s leading holds at once: refund with a note, the best covered earlier bid leads again, they never win', async () => {
    const owner = await signUpAdmin(app);
    const { auctionId, productIds: [p1, p2] } = await createAuction(app, owner.token, { products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const bid = (token: string, productId: string, amount: number) => call(app, 'POST', '/api/bid', { product_id: productId, bid_amount: amount }, token);
    expect((await bid(ravi.token, p1!, 100)).statusCode).toBe(201);
    expect((await bid(asha.token, p1!, 200)).statusCode).toBe(201);
    expect((await bid(asha.token, p2!, 300)).statusCode).toBe(201);
    expect((await call(app, 'PATCH', `/api/admin/users/${asha.user.id}`, { status: 'inactive' }, owner.token)).statusCode).toBe(200);
    const products = (await call(app, 'GET', `/api/admin/auction/${auctionId}/products`, undefined, owner.token)).json<{ id: string; highest_bid: number }[]>();
    expect(Object.fromEntries(products.map((p) => [p.id, p.highest_bid]))).toEqual({ [p1!]: 100, [p2!]: 0 });
    const users = (await call(app, 'GET', '/api/admin/users', undefined, owner.token)).json<{ users: { id: number; wallet_balance: number }[] }>().users;
    expect(users.find((u) => u.id === asha.user.id)?.wallet_balance).toBe(1000);
    expect(users.find((u) => u.id === ravi.user.id)?.wallet_balance).toBe(900);
    const ledger = await app.ctx.store.query<{ type: string; amount: number; notes: string | null }>(
      'select type, amount, notes from wallet_transactions where user_id = ? and type = ? order by id', [asha.user.id, 'refund'],
    );
    expect(ledger).toEqual([
      { type: 'refund', amount: 20_000, notes: `Bid on Product ${p1} released: the account was deactivated` },
      { type: 'refund', amount: 30_000, notes: `Bid on Product ${p2} released: the account was deactivated` },
    ]);
    const settled = (await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, owner.token)).json<{ sold: { product_id: string; amount: number }[] }>();
    expect(settled.sold).toEqual([expect.objectContaining({ product_id: p1, amount: 100 })]);
    const audit = await app.ctx.reads.auditMoney();
    expect(audit).toMatchObject({ ok: true, ledgerMismatches: 0, negativeBalances: 0, multipleLeaders: 0 });
  });

  it('validates the id and the status', async () => {
    const owner = await signUpAdmin(app);
    expectError(await call(app, 'PATCH', '/api/admin/users/abc', { status: 'inactive' }, owner.token), 400, 'VALIDATION');
    expectError(await call(app, 'PATCH', '/api/admin/users/999', { status: 'inactive' }, owner.token), 404, 'NOT_FOUND');
    const u = await signUpUser(app);
    const bad = expectError(await call(app, 'PATCH', `/api/admin/users/${u.user.id}`, { status: 'banned' }, owner.token), 400, 'VALIDATION');
    expect(bad.field).toBe('status');
    expectError(await call(app, 'PATCH', `/api/admin/users/${u.user.id}`, {}, owner.token), 400, 'VALIDATION');
  });
});

describe('PUT /api/admin/profile', () => {
  it('saves the admin’s own name and mobile number', async () => {
    const a = await signUpAdmin(app);
    const res = await call(app, 'PUT', '/api/admin/profile', { name: '  Meera Iyer ', mobile_number: '+919812345678' }, a.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Profile updated successfully!', admin: { id: a.admin.id, username: a.username, name: 'Meera Iyer', mobile_number: '+919812345678', is_owner: true } });
    const login = await call(app, 'POST', '/api/admin/login', { username: a.username, password: a.password });
    expect(login.json().admin.name).toBe('Meera Iyer');
    expectError(await call(app, 'PUT', '/api/admin/profile', { name: '', mobile_number: '12' }, a.token), 400, 'VALIDATION');
    const u = await signUpUser(app);
    expectError(await call(app, 'PUT', '/api/admin/profile', { name: 'X', mobile_number: '1234567' }, u.token), 403, 'FORBIDDEN');
  });
});
