/**
 * What a session token alone must not do (docs/email.md), on both stores with a real SMTP server in the
 * test process: change the account's address (the current password is asked for), move the account
 * away from its owner unnoticed (the old address is told, with a link that undoes the change, sets a new
 * password and ends every session), remove the address (the password again, and the address is told),
 * or keep a link working after the password changed or the account was deactivated.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { call, expectError, makeApp, makeClock, signUpAdmin, signUpUser, sqlRow, uniqueName } from '../../test/helpers.js';
import { linkToken, mailTo, smtpServer, type Received } from '../../test/mail-helpers.js';

const PUBLIC_URL = 'https://auctions.test.example';
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let app: App;
let clock: ReturnType<typeof makeClock>;

async function start(overrides: { rateLimit?: boolean } = {}) {
  smtp = await smtpServer();
  clock = makeClock();
  app = await makeApp({ smtpUrl: smtp.url, publicUrl: PUBLIC_URL, autoSettle: false, ...overrides }, { now: clock.now, mail: { pollMs: 25 } });
}

beforeEach(async () => { await start(); });
afterEach(async () => {
  await app.close();
  await smtp.close();
});

type Account = { token: string; password: string; username: string };
/** The password the undo link sets. */
const NEW_PASSWORD = 'taken-back-1';
const address = (prefix = 'p') => `${uniqueName(prefix).toLowerCase()}@example.com`;
const me = async (token: string) => (await call(app, 'GET', '/api/me', undefined, token)).json<{ email: string | null; email_verified: boolean; confirmed_email: string | null }>();
/** The first mail to `email` whose subject matches, received after the `since`-th. */
const next = (email: string, subject: RegExp, since = 0) => mailTo(smtp.received, (r: Received) => smtp.received.indexOf(r) >= since && r.to.includes(email) && subject.test(r.parsed.subject ?? ''));

/** Gives the account `email` and opens the confirmation link mailed to it. */
async function confirm(a: Account, email: string) {
  const since = smtp.received.length;
  const put = await call(app, 'PUT', '/api/me/email', { email, password: a.password }, a.token);
  expect(put.statusCode, put.body).toBe(202);
  const res = await call(app, 'POST', '/api/email/verify', { token: linkToken(await next(email, /Confirm/, since), '/verify-email') });
  expect(res.statusCode, res.body).toBe(204);
}

/** The reset link mailed to `email` after a forgot request by username. */
async function resetLink(a: Account, email: string) {
  const since = smtp.received.length;
  expect((await call(app, 'POST', '/api/password/forgot', { username: a.username })).statusCode).toBe(202);
  return linkToken(await next(email, /Reset/, since), '/reset-password');
}

/** A pending address's confirmation link (the address is not confirmed yet). */
async function pendingLink(a: Account, email: string) {
  const since = smtp.received.length;
  expect((await call(app, 'PUT', '/api/me/email', { email, password: a.password }, a.token)).statusCode).toBe(202);
  return linkToken(await next(email, /Confirm/, since), '/verify-email');
}

describe('changing the address takes the current password', () => {
  it('none is 400 VALIDATION naming password, a wrong one 400 WRONG_PASSWORD; neither mails anything nor changes the address', async () => {
    const u = await signUpUser(app);
    const email = address();
    expect(expectError(await call(app, 'PUT', '/api/me/email', { email }, u.token), 400, 'VALIDATION').field).toBe('password');
    expect(expectError(await call(app, 'PUT', '/api/me/email', { email, password: 'not-it-1' }, u.token), 400, 'WRONG_PASSWORD').field).toBe('password');
    expect(expectError(await call(app, 'PUT', '/api/me/email', { email, password: 'p'.repeat(129) }, u.token), 400, 'VALIDATION').field).toBe('password');
    expect(await me(u.token)).toMatchObject({ email: null, email_verified: false });
    expect(await sqlRow(app, 'select count(*) as n from mail_outbox')).toEqual({ n: 0 });
    const ok = await call(app, 'PUT', '/api/me/email', { email, password: u.password }, u.token);
    expect(ok.statusCode, ok.body).toBe(202);
    // Admins alike.
    const admin = await signUpAdmin(app);
    expectError(await call(app, 'PUT', '/api/me/email', { email: address(), password: 'not-it-1' }, admin.token), 400, 'WRONG_PASSWORD');
    expect((await call(app, 'PUT', '/api/me/email', { email: address(), password: admin.password }, admin.token)).statusCode).toBe(202);
  });

  it('guesses count with those of change-password, per account: 10 per 15 minutes in all', async () => {
    await app.close();
    await smtp.close();
    await start({ rateLimit: true });
    const u = await signUpUser(app);
    for (let i = 0; i < 10; i++) expectError(await call(app, 'POST', '/api/change-password', { password: `wrong-${i}`, new_password: 'secret9' }, u.token), 400, 'WRONG_PASSWORD');
    const limited = expectError(await call(app, 'PUT', '/api/me/email', { email: address(), password: u.password }, u.token), 429, 'RATE_LIMITED');
    expect(limited.message).toMatch(/try again in 15 minutes/);
    // Another account's budget is its own.
    const other = await signUpUser(app);
    expect((await call(app, 'PUT', '/api/me/email', { email: address(), password: other.password }, other.token)).statusCode).toBe(202);
  });
});

describe('the old address is told, and can undo the change', () => {
  it('mails the old confirmed address (the new one masked) a link that restores it once and ends every session', async () => {
    const u = await signUpUser(app);
    const old = address('old');
    const taken = `mallory.${uniqueName('m').toLowerCase()}@evil-mail.example`;
    await confirm(u, old);
    // No address before the first: nobody to tell.
    expect(smtp.received.filter((r) => /changed/i.test(r.parsed.subject ?? ''))).toHaveLength(0);
    await confirm(u, taken);

    const told = await next(old, /changed/i);
    expect(told.parsed.subject).toBe('Your email address was changed');
    expect(told.parsed.text).toContain(u.username);
    expect(told.parsed.text).toContain('m***@e***.example');
    expect(told.parsed.text).not.toContain(taken);
    expect(told.parsed.html).not.toContain(taken);
    expect(told.parsed.text).toContain(`${PUBLIC_URL}/undo-email?token=`);
    const undo = linkToken(told, '/undo-email');
    expect(await sqlRow(app, 'select count(*) as n from account_tokens where token_hash = ?', undo)).toEqual({ n: 0 });
    // Until undone, a reset goes to the new address.
    const stolenReset = await resetLink(u, taken);
    const fresh = (await call(app, 'POST', '/api/login', { username: u.username, password: u.password })).json<{ token: string }>().token;

    expect((await call(app, 'POST', '/api/email/undo', { token: undo, password: NEW_PASSWORD })).statusCode).toBe(204);
    expectError(await call(app, 'GET', '/api/me', undefined, u.token), 401, 'UNAUTHENTICATED');
    expectError(await call(app, 'GET', '/api/me', undefined, fresh), 401, 'UNAUTHENTICATED');
    expectError(await call(app, 'POST', '/api/password/reset', { token: stolenReset, password: 'stolen-99' }), 400, 'TOKEN_INVALID');
    expectError(await call(app, 'POST', '/api/email/undo', { token: undo, password: NEW_PASSWORD }), 400, 'TOKEN_INVALID');
    const login = await call(app, 'POST', '/api/login', { username: u.username, password: NEW_PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(await me(login.json<{ token: string }>().token)).toMatchObject({ email: old, email_verified: true, confirmed_email: old });
    // A reset goes to the restored address again.
    await resetLink(u, old);
    expectError(await call(app, 'POST', '/api/email/undo', { token: 'not-a-token', password: NEW_PASSWORD }), 400, 'TOKEN_INVALID');
    expectError(await call(app, 'POST', '/api/email/undo', {}), 400, 'VALIDATION');
  });

  it('a later change’s link cannot cancel an earlier one’s; using the earlier ends the later', async () => {
    const u = await signUpUser(app);
    const [a, b, c] = [address('a'), address('b'), address('c')];
    await confirm(u, a);
    await confirm(u, b);
    const undoToA = linkToken(await next(a, /changed/i), '/undo-email');
    await confirm(u, c);
    const undoToB = linkToken(await next(b, /changed/i), '/undo-email');
    // Whoever holds b undoes first: the account is at b, and a's link still works.
    expect((await call(app, 'POST', '/api/email/undo', { token: undoToB, password: NEW_PASSWORD })).statusCode).toBe(204);
    expect(await sqlRow(app, 'select email, pending_email from users where username = ?', u.username)).toEqual({ email: b, pending_email: null });
    expect((await call(app, 'POST', '/api/email/undo', { token: undoToA, password: NEW_PASSWORD })).statusCode).toBe(204);
    expect(await sqlRow(app, 'select email from users where username = ?', u.username)).toEqual({ email: a });

    // The other order: a's link first, then b's no longer works.
    const v = await signUpUser(app);
    const [d, e, f] = [address('d'), address('e'), address('f')];
    await confirm(v, d);
    await confirm(v, e);
    const undoToD = linkToken(await next(d, /changed/i), '/undo-email');
    const login = async () => (await call(app, 'POST', '/api/login', { username: v.username, password: NEW_PASSWORD })).json<{ token: string }>().token;
    await confirm(v, f);
    const undoToE = linkToken(await next(e, /changed/i), '/undo-email');
    expect((await call(app, 'POST', '/api/email/undo', { token: undoToD, password: NEW_PASSWORD })).statusCode).toBe(204);
    expectError(await call(app, 'POST', '/api/email/undo', { token: undoToE, password: NEW_PASSWORD }), 400, 'TOKEN_INVALID');
    expect(await me(await login())).toMatchObject({ email: d, email_verified: true });
  });

  it('works for admins, and for 7 days', async () => {
    const admin = await signUpAdmin(app);
    const [a, b] = [address('a'), address('b')];
    await confirm(admin, a);
    await confirm(admin, b);
    const told = await next(a, /changed/i);
    expect(told.parsed.text).toContain('admin account');
    expect(told.parsed.text).toMatch(/undo-email\?token=[^\s&]+&portal=admin/);
    clock.advance(7 * 24 * 3_600_000 + 1);
    expectError(await call(app, 'POST', '/api/email/undo', { token: linkToken(told, '/undo-email'), password: NEW_PASSWORD }), 400, 'TOKEN_INVALID');
    expect(await sqlRow(app, 'select email from admins where username = ?', admin.username)).toEqual({ email: b });
  });
});

describe('the undo sets a new password: whoever changed the address knew the old one', () => {
  it('takes the new password (the reset page’s rules); without one it is 400 and the token still works; the old password stops working', async () => {
    const u = await signUpUser(app);
    const [a, b] = [address('a'), address('b')];
    await confirm(u, a);
    await confirm(u, b);
    const undo = linkToken(await next(a, /changed/i), '/undo-email');
    expect(expectError(await call(app, 'POST', '/api/email/undo', { token: undo }), 400, 'VALIDATION').field).toBe('password');
    expect(expectError(await call(app, 'POST', '/api/email/undo', { token: undo, password: 'short' }), 400, 'VALIDATION').field).toBe('password');
    expect(expectError(await call(app, 'POST', '/api/email/undo', { token: undo, password: 'p'.repeat(129) }), 400, 'VALIDATION').field).toBe('password');
    expect(await sqlRow(app, 'select email from users where username = ?', u.username)).toEqual({ email: b });

    expect((await call(app, 'POST', '/api/email/undo', { token: undo, password: NEW_PASSWORD })).statusCode).toBe(204);
    expectError(await call(app, 'POST', '/api/login', { username: u.username, password: u.password }), 400, 'INVALID_CREDENTIALS');
    const login = await call(app, 'POST', '/api/login', { username: u.username, password: NEW_PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    expect(await me(login.json<{ token: string }>().token)).toMatchObject({ email: a, email_verified: true });
  });

  it('an address another account has confirmed since is 409, and the link still works once the address is free', async () => {
    const u = await signUpUser(app);
    const v = await signUpUser(app);
    const [a, b] = [address('a'), address('b')];
    await confirm(u, a);
    await confirm(u, b);
    const undo = linkToken(await next(a, /changed/i), '/undo-email');
    await confirm(v, a);
    expectError(await call(app, 'POST', '/api/email/undo', { token: undo, password: NEW_PASSWORD }), 409, 'EMAIL_TAKEN');
    // Refused, nothing changed: u keeps b and the old password.
    expect((await call(app, 'POST', '/api/login', { username: u.username, password: u.password })).statusCode).toBe(200);
    expect((await call(app, 'DELETE', '/api/me/email', { password: v.password }, v.token)).statusCode).toBe(204);
    expect((await call(app, 'POST', '/api/email/undo', { token: undo, password: NEW_PASSWORD })).statusCode).toBe(204);
    expect(await sqlRow(app, 'select email from users where username = ?', u.username)).toEqual({ email: a });
  });
});

describe('removing the address takes the current password, and the address is told', () => {
  it('none is 400 VALIDATION naming password, a wrong one 400 WRONG_PASSWORD; neither removes it', async () => {
    const u = await signUpUser(app);
    const email = address();
    await confirm(u, email);
    expect(expectError(await call(app, 'DELETE', '/api/me/email', undefined, u.token), 400, 'VALIDATION').field).toBe('password');
    expect(expectError(await call(app, 'DELETE', '/api/me/email', {}, u.token), 400, 'VALIDATION').field).toBe('password');
    expect(expectError(await call(app, 'DELETE', '/api/me/email', { password: 'not-it-1' }, u.token), 400, 'WRONG_PASSWORD').field).toBe('password');
    expect(await me(u.token)).toMatchObject({ email, email_verified: true });
    expect(smtp.received.filter((r) => /removed/i.test(r.parsed.subject ?? ''))).toHaveLength(0);
    // Admins alike.
    const admin = await signUpAdmin(app);
    expectError(await call(app, 'DELETE', '/api/me/email', { password: 'not-it-1' }, admin.token), 400, 'WRONG_PASSWORD');
    expect((await call(app, 'DELETE', '/api/me/email', { password: admin.password }, admin.token)).statusCode).toBe(204);
  });

  it('mails the removed confirmed address a link that puts it back with a new password and ends every session', async () => {
    const u = await signUpUser(app);
    const email = address('rm');
    await confirm(u, email);
    const since = smtp.received.length;
    const removed = await call(app, 'DELETE', '/api/me/email', { password: u.password }, u.token);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await me(u.token)).toMatchObject({ email: null, confirmed_email: null });
    const told = await next(email, /removed/i, since);
    expect(told.parsed.subject).toBe('Your email address was removed');
    expect(told.parsed.text).toContain('the email address was removed from your account');
    expect(told.parsed.text).toContain(u.username);
    expect(told.parsed.text).toContain(`${PUBLIC_URL}/undo-email?token=`);
    const undo = linkToken(told, '/undo-email');

    expect((await call(app, 'POST', '/api/email/undo', { token: undo, password: NEW_PASSWORD })).statusCode).toBe(204);
    expectError(await call(app, 'GET', '/api/me', undefined, u.token), 401, 'UNAUTHENTICATED');
    const login = await call(app, 'POST', '/api/login', { username: u.username, password: NEW_PASSWORD });
    expect(await me(login.json<{ token: string }>().token)).toMatchObject({ email, email_verified: true, confirmed_email: email });
    expectError(await call(app, 'POST', '/api/email/undo', { token: undo, password: NEW_PASSWORD }), 400, 'TOKEN_INVALID');

    // Only a confirmed address is told: a waiting one was never the account's.
    const w = await signUpUser(app);
    await pendingLink(w, address('w'));
    const before = smtp.received.length;
    expect((await call(app, 'DELETE', '/api/me/email', { password: w.password }, w.token)).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.received.slice(before).filter((r) => /removed/i.test(r.parsed.subject ?? ''))).toHaveLength(0);

    // An admin's link names the admin portal.
    const admin = await signUpAdmin(app);
    const adminEmail = address('adm');
    await confirm(admin, adminEmail);
    expect((await call(app, 'DELETE', '/api/me/email', { password: admin.password }, admin.token)).statusCode).toBe(204);
    expect((await next(adminEmail, /removed/i)).parsed.text).toMatch(/undo-email\?token=[^\s&]+&portal=admin/);
  });

  it('guesses count with those of change-password, per account', async () => {
    await app.close();
    await smtp.close();
    await start({ rateLimit: true });
    const u = await signUpUser(app);
    for (let i = 0; i < 10; i++) expectError(await call(app, 'DELETE', '/api/me/email', { password: `wrong-${i}` }, u.token), 400, 'WRONG_PASSWORD');
    expectError(await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'secret9' }, u.token), 429, 'RATE_LIMITED');
    expectError(await call(app, 'DELETE', '/api/me/email', { password: u.password }, u.token), 429, 'RATE_LIMITED');
  });
});

describe('a link sent before a password change, a reset or a deactivation stops working', () => {
  it('a password change ends reset links and the waiting address’s link', async () => {
    const u = await signUpUser(app);
    const email = address();
    await confirm(u, email);
    const reset = await resetLink(u, email);
    const waiting = address('w');
    const verify = await pendingLink(u, waiting);
    const changed = await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'secret-22' }, u.token);
    expect(changed.statusCode, changed.body).toBe(200);
    expectError(await call(app, 'POST', '/api/password/reset', { token: reset, password: 'another-33' }), 400, 'TOKEN_INVALID');
    expectError(await call(app, 'POST', '/api/email/verify', { token: verify }), 400, 'TOKEN_INVALID');
    // The waiting address is dropped with its link; the confirmed one stays.
    expect(await me(changed.json<{ token: string }>().token)).toMatchObject({ email, email_verified: true, confirmed_email: email });

    const admin = await signUpAdmin(app);
    const adminEmail = address('adm');
    await confirm(admin, adminEmail);
    const since = smtp.received.length;
    expect((await call(app, 'POST', '/api/password/forgot', { username: admin.username, role: 'admin' })).statusCode).toBe(202);
    const adminReset = linkToken(await next(adminEmail, /Reset/, since), '/reset-password');
    expect((await call(app, 'POST', '/api/admin/change-password', { password: admin.password, new_password: 'secret-44', role: 'admin' }, admin.token)).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/password/reset', { token: adminReset, password: 'another-55' }), 400, 'TOKEN_INVALID');
  });

  it('a reset ends the waiting address’s link', async () => {
    const u = await signUpUser(app);
    const email = address();
    await confirm(u, email);
    const verify = await pendingLink(u, address('w'));
    const reset = await resetLink(u, email);
    expect((await call(app, 'POST', '/api/password/reset', { token: reset, password: 'brand-new-1' })).statusCode).toBe(204);
    expectError(await call(app, 'POST', '/api/email/verify', { token: verify }), 400, 'TOKEN_INVALID');
    const login = await call(app, 'POST', '/api/login', { username: u.username, password: 'brand-new-1' });
    expect(await me(login.json<{ token: string }>().token)).toMatchObject({ email, email_verified: true });
  });

  it('a deactivation ends reset and confirmation links: reactivated, the account is as its owner left it', async () => {
    const owner = await signUpAdmin(app);
    const u = await signUpUser(app);
    const email = address();
    await confirm(u, email);
    const verify = await pendingLink(u, address('w'));
    const reset = await resetLink(u, email);
    const user = await sqlRow<{ id: number }>(app, 'select id from users where username = ?', u.username);
    expect((await call(app, 'PATCH', `/api/admin/users/${user!.id}`, { status: 'inactive' }, owner.token)).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/password/reset', { token: reset, password: 'taken-over-1' }), 400, 'TOKEN_INVALID');
    expectError(await call(app, 'POST', '/api/email/verify', { token: verify }), 400, 'TOKEN_INVALID');
    expect((await call(app, 'PATCH', `/api/admin/users/${user!.id}`, { status: 'active' }, owner.token)).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/password/reset', { token: reset, password: 'taken-over-2' }), 400, 'TOKEN_INVALID');
    expect((await call(app, 'POST', '/api/login', { username: u.username, password: u.password })).statusCode).toBe(200);
    expect(await sqlRow(app, 'select email, pending_email from users where id = ?', user!.id)).toEqual({ email, pending_email: null });
  });
});
