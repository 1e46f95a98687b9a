import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { call, createAuction, expectError, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connect, eventually, listen } from '../test/live-helpers.js';

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
      wallet_balance: 1500.5, auctions_registered: 1, status: 'active', created_at: expect.stringMatching(/Z$/),
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
