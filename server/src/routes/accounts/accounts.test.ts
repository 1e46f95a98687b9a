import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { setUserStatus } from '../../domain/accounts.js';
import { call, expectError, makeApp, signUpAdmin, signUpUser, TEST_SECRET, uniqueName } from '../../test/helpers.js';

let app: App;
beforeEach(async () => { app = await makeApp(); });
afterEach(async () => { await app.close(); });

const newUser = (over: Record<string, unknown> = {}) => ({ name: 'Asha Rao', username: uniqueName('asha'), password: 'secret1', mobile_number: '+919876543210', ...over });

describe('POST /api/register', () => {
  it('creates a bidder and returns it without secrets', async () => {
    const body = newUser();
    const res = await call(app, 'POST', '/api/register', body);
    expect(res.statusCode).toBe(201);
    const json = res.json();
    expect(json.message).toBe('Registration successful! Please login.');
    expect(json.user).toEqual({ id: expect.any(Number), username: body.username, name: 'Asha Rao', mobile_number: '+919876543210' });
    expect(res.body).not.toMatch(/password|scrypt/);
  });

  it('treats usernames case-insensitively: a duplicate is 409 USERNAME_TAKEN', async () => {
    const body = newUser();
    await call(app, 'POST', '/api/register', body);
    const res = await call(app, 'POST', '/api/register', { ...newUser(), username: body.username.toUpperCase() });
    expect(expectError(res, 409, 'USERNAME_TAKEN').field).toBe('username');
  });

  it('keeps users and admins in separate username spaces', async () => {
    const username = uniqueName('same');
    expect((await call(app, 'POST', '/api/register', newUser({ username }))).statusCode).toBe(201);
    expect((await call(app, 'POST', '/api/admin/register', newUser({ username, role: 'admin' }))).statusCode).toBe(201);
  });

  it.each([
    ['name', { name: undefined }, 'name is required'],
    ['username', { username: undefined }, 'username is required'],
    ['password', { password: undefined }, 'password is required'],
    ['mobile_number', { mobile_number: undefined }, 'mobile_number is required'],
    ['mobile_number', { mobile_number: 9876543210 }, 'mobile_number must be a string'],
    ['name', { name: ['x'] }, 'name must be a string'],
    ['password', { password: '12345' }, 'Password must be at least 6 characters long'],
    ['username', { username: 'a b' }, 'username must be 3–32 characters: letters, digits, _ . or -'],
    ['username', { username: 'x'.repeat(33) }, 'username must be 3–32 characters: letters, digits, _ . or -'],
    ['mobile_number', { mobile_number: '12ab' }, 'mobile_number must be 7–15 digits with an optional leading +'],
    ['name', { name: '   ' }, 'name must be 1–120 characters'],
    ['name', { name: 'n'.repeat(121) }, 'name must be 1–120 characters'],
  ])('400 VALIDATION naming %s for %j', async (field, over, message) => {
    const res = await call(app, 'POST', '/api/register', newUser(over));
    const body = expectError(res, 400, 'VALIDATION');
    expect(body.field).toBe(field);
    expect(body.error).toBe(message);
  });

  it('ignores unknown fields', async () => {
    const res = await call(app, 'POST', '/api/register', newUser({ is_owner: true, wallet_balance: 1e6 }));
    expect(res.statusCode).toBe(201);
  });

  it('answers malformed JSON, non-objects, wrong media types and oversize bodies with the error shape', async () => {
    const raw = (payload: string, type = 'application/json') =>
      app.inject({ method: 'POST', url: '/api/register', payload, headers: { 'content-type': type } });
    expect(expectError(await raw('{"name": '), 400, 'VALIDATION').error).toBe('Request body is not valid JSON');
    expect(expectError(await raw('[1,2]'), 400, 'VALIDATION').error).toBe('body must be a JSON object');
    expect(expectError(await raw('{"__proto__": {"x": 1}}'), 400, 'VALIDATION').field).toBe('body');
    expect(expectError(await raw(''), 400, 'VALIDATION').error).toBe('name is required');
    expectError(await raw('name=x', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await raw('name=x', 'application/x-www-form-urlencoded'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const big = JSON.stringify(newUser({ name: 'n'.repeat(70 * 1024) }));
    expectError(await raw(big), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('POST /api/login', () => {
  it('returns a token and the session user', async () => {
    const body = newUser();
    await call(app, 'POST', '/api/register', body);
    const res = await call(app, 'POST', '/api/login', { username: body.username.toUpperCase(), password: body.password });
    expect(res.statusCode).toBe(200);
    const { token, user } = res.json();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(Object.keys(user).sort()).toEqual(['id', 'mobile_number', 'name', 'username']);
  });

  it('answers a wrong password and an unknown user alike: 400 INVALID_CREDENTIALS, never 401', async () => {
    const body = newUser();
    await call(app, 'POST', '/api/register', body);
    const wrong = expectError(await call(app, 'POST', '/api/login', { username: body.username, password: 'nope123' }), 400, 'INVALID_CREDENTIALS');
    const unknown = expectError(await call(app, 'POST', '/api/login', { username: 'nobody_here', password: 'nope123' }), 400, 'INVALID_CREDENTIALS');
    expect(wrong.error).toBe(unknown.error);
  });

  it('does not let a bidder sign in as an admin or the reverse', async () => {
    const u = await signUpUser(app);
    expectError(await call(app, 'POST', '/api/admin/login', { username: u.username, password: u.password }), 400, 'INVALID_CREDENTIALS');
  });

  it('refuses a deactivated account with 403 ACCOUNT_INACTIVE and revokes its tokens', async () => {
    const u = await signUpUser(app);
    expect((await call(app, 'POST', '/api/change-password', { password: 'wrong00', new_password: 'secret2' }, u.token)).statusCode).toBe(400);
    await app.ctx.commands.run((tx) => setUserStatus(tx, { userId: u.user.id, status: 'inactive' }, Date.now()));
    expectError(await call(app, 'POST', '/api/login', { username: u.username, password: u.password }), 403, 'ACCOUNT_INACTIVE');
    expectError(await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'secret2' }, u.token), 401, 'UNAUTHENTICATED');
    // Reactivation lets the user sign in again but does not revive the old token.
    await app.ctx.commands.run((tx) => setUserStatus(tx, { userId: u.user.id, status: 'active' }, Date.now()));
    expect((await call(app, 'POST', '/api/login', { username: u.username, password: u.password })).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'secret2' }, u.token), 401, 'UNAUTHENTICATED');
  });
});

describe('tokens on guarded routes', () => {
  const route = '/api/change-password';
  const body = { password: 'secret1', new_password: 'secret2' };
  const sign = (claims: Record<string, unknown>, secret = TEST_SECRET, exp: number | string = '1h') =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(typeof claims.sub === 'string' ? claims.sub : '1').setIssuedAt().setExpirationTime(exp).sign(new TextEncoder().encode(secret));

  it('401 UNAUTHENTICATED without a token, with garbage, or with another scheme', async () => {
    expectError(await call(app, 'POST', route, body), 401, 'UNAUTHENTICATED');
    expectError(await call(app, 'POST', route, body, 'not-a-token'), 401, 'UNAUTHENTICATED');
    const u = await signUpUser(app);
    const res = await app.inject({ method: 'POST', url: route, payload: body, headers: { authorization: `Basic ${u.token}` } });
    expectError(res, 401, 'UNAUTHENTICATED');
  });

  it('401 for a tampered signature, another key, alg none and an expired token', async () => {
    const u = await signUpUser(app);
    const [h, p, s] = u.token.split('.') as [string, string, string];
    const flipped = s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
    expectError(await call(app, 'POST', route, body, `${h}.${p}.${flipped}`), 401, 'UNAUTHENTICATED');
    // Same claims, payload swapped to another user id, original signature.
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: '999' })).toString('base64url');
    expectError(await call(app, 'POST', route, body, `${h}.${forged}.${s}`), 401, 'UNAUTHENTICATED');
    const otherKey = await sign({ sub: String(u.user.id), role: 'user', ver: 0 }, 'another-secret-of-at-least-32-characters!!');
    expectError(await call(app, 'POST', route, body, otherKey), 401, 'UNAUTHENTICATED');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
    expectError(await call(app, 'POST', route, body, none), 401, 'UNAUTHENTICATED');
    const expired = await sign({ sub: String(u.user.id), role: 'user', ver: 0 }, TEST_SECRET, Math.floor(Date.now() / 1000) - 10);
    expectError(await call(app, 'POST', route, body, expired), 401, 'UNAUTHENTICATED');
    // The control: a well-formed token with the right key and claims is accepted.
    const good = await sign({ sub: String(u.user.id), role: 'user', ver: 0 });
    expect((await call(app, 'POST', route, body, good)).statusCode).toBe(200);
  });

  it('403 FORBIDDEN for a valid token of the wrong role, both ways', async () => {
    const u = await signUpUser(app);
    const a = await signUpAdmin(app);
    expectError(await call(app, 'POST', '/api/admin/change-password', { password: 'secret1', new_password: 'secret2' }, u.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/change-password', { password: 'secret1', new_password: 'secret2' }, a.token), 403, 'FORBIDDEN');
  });

  it('a token for a user id that does not exist is 401', async () => {
    const t = await sign({ sub: '424242', role: 'user', ver: 0 });
    expectError(await call(app, 'POST', route, body, t), 401, 'UNAUTHENTICATED');
  });
});

describe('POST /api/change-password and /api/admin/change-password', () => {
  it('changes the password, returns a fresh token and revokes older ones', async () => {
    const u = await signUpUser(app);
    const res = await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'newpass9', username: u.username }, u.token);
    expect(res.statusCode).toBe(200);
    const { message, token } = res.json();
    expect(message).toBe('Password changed successfully!');
    expectError(await call(app, 'POST', '/api/change-password', { password: 'newpass9', new_password: 'x12345' }, u.token), 401, 'UNAUTHENTICATED');
    expectError(await call(app, 'POST', '/api/login', { username: u.username, password: u.password }), 400, 'INVALID_CREDENTIALS');
    expect((await call(app, 'POST', '/api/login', { username: u.username, password: 'newpass9' })).statusCode).toBe(200);
    // The fresh token works.
    expect((await call(app, 'POST', '/api/change-password', { password: 'newpass9', new_password: 'third99' }, token)).statusCode).toBe(200);
  });

  it('400 WRONG_PASSWORD for a wrong current password; 400 for a short new one; nothing changes', async () => {
    const u = await signUpUser(app);
    expectError(await call(app, 'POST', '/api/change-password', { password: 'wrong00', new_password: 'newpass9' }, u.token), 400, 'WRONG_PASSWORD');
    const short = expectError(await call(app, 'POST', '/api/change-password', { password: u.password, new_password: '123' }, u.token), 400, 'VALIDATION');
    expect(short.error).toBe('Password must be at least 6 characters long');
    expect((await call(app, 'POST', '/api/login', { username: u.username, password: u.password })).statusCode).toBe(200);
  });

  it('403 when the body names another account', async () => {
    const u = await signUpUser(app);
    const other = await signUpUser(app);
    expectError(await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'newpass9', username: other.username }, u.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'newpass9', user_id: other.user.id }, u.token), 403, 'FORBIDDEN');
    expect((await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'newpass9', user_id: u.user.id }, u.token)).statusCode).toBe(200);
  });

  it('admins change their own password with the spec payload', async () => {
    const a = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const payload = { username: a.username, password: a.password, new_password: 'adminpw2', role: 'admin' };
    expectError(await call(app, 'POST', '/api/admin/change-password', { ...payload, username: other.username }, a.token), 403, 'FORBIDDEN');
    expect((await call(app, 'POST', '/api/admin/change-password', payload, a.token)).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/admin/change-password', { ...payload, password: 'adminpw2' }, a.token), 401, 'UNAUTHENTICATED');
    expect((await call(app, 'POST', '/api/admin/login', { username: a.username, password: 'adminpw2', role: 'admin' })).statusCode).toBe(200);
  });
});

describe('admin registration', () => {
  it('makes the first admin the owner and no one else', async () => {
    const first = await signUpAdmin(app);
    const second = await signUpAdmin(app);
    expect(first.admin.is_owner).toBe(true);
    expect(second.admin.is_owner).toBe(false);
  });

  it('names exactly one owner when the first registrations race', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      call(app, 'POST', '/api/admin/register', newUser({ username: uniqueName(`race${i}`), role: 'admin' }))));
    const owners = results.map((r) => r.json().admin.is_owner as boolean).filter(Boolean);
    expect(owners).toHaveLength(1);
  });

  it('rejects a role other than admin', async () => {
    expectError(await call(app, 'POST', '/api/admin/register', newUser({ role: 'user' })), 400, 'VALIDATION');
  });

  it('ADMIN_SIGNUP=closed lets only the first admin register', async () => {
    const closed = await makeApp({ adminSignup: 'closed' });
    try {
      expect((await call(closed, 'POST', '/api/admin/register', newUser({ role: 'admin' }))).statusCode).toBe(201);
      expectError(await call(closed, 'POST', '/api/admin/register', newUser({ role: 'admin' })), 403, 'SIGNUP_CLOSED');
      // Bidders can still register.
      expect((await call(closed, 'POST', '/api/register', newUser())).statusCode).toBe(201);
    } finally {
      await closed.close();
    }
  });
});
