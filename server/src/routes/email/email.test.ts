/**
 * Accounts by email through the HTTP API (docs/email.md), on both stores, with a real SMTP server in
 * the test process receiving what the outbox sends: addresses and their confirmation, password reset
 * (single use, 30 minutes, sessions ended, no enumeration), notice emails with their choices, the
 * outbid spacing and the unsubscribe link that needs no sign-in.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { HOUR, TEST_SECRET, bid, call, createAuction, expectError, makeApp, makeClock, richBidder, signUpAdmin, signUpUser, sqlRow, uniqueName } from '../../test/helpers.js';
import { headerOf, linkToken, mailTo, smtpServer, type Received } from '../../test/mail-helpers.js';
import { connect, connectWs, eventually, listen } from '../../test/live-helpers.js';

const PUBLIC_URL = 'https://auctions.test.example';
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let app: App;
let clock: ReturnType<typeof makeClock>;

async function start(overrides: { rateLimit?: boolean } = {}) {
  smtp = await smtpServer();
  clock = makeClock();
  app = await makeApp({ smtpUrl: smtp.url, publicUrl: PUBLIC_URL, mailFrom: 'Auctions <auctions@test.example>', autoSettle: false, ...overrides }, { now: clock.now, mail: { pollMs: 25 } });
}

beforeEach(async () => { await start(); });
afterEach(async () => {
  await app.close();
  await smtp.close();
});

const to = (address: string, subject?: RegExp) => (r: Received) => r.to.includes(address) && (subject === undefined || subject.test(r.parsed.subject ?? ''));
const address = () => `${uniqueName('p').toLowerCase()}@example.com`;
const me = async (token: string) => (await call(app, 'GET', '/api/me', undefined, token)).json<{ email: string | null; email_verified: boolean; role: string }>();

/** Gives the account an address (with its password, the helpers' 'secret1') and opens the link mailed to it. */
async function confirmed(token: string, email = address(), password = 'secret1') {
  const before = smtp.received.length;
  const put = await call(app, 'PUT', '/api/me/email', { email, password }, token);
  expect(put.statusCode, put.body).toBe(202);
  const mail = await mailTo(smtp.received, (r) => smtp.received.indexOf(r) >= before && to(email, /Confirm/)(r));
  const res = await call(app, 'POST', '/api/email/verify', { token: linkToken(mail, '/verify-email') });
  expect(res.statusCode, res.body).toBe(204);
  return email;
}

describe('email addresses', () => {
  it('an address given at sign-up waits for its link; the link confirms it once', async () => {
    const email = address();
    const username = uniqueName('u');
    const reg = await call(app, 'POST', '/api/register', { name: 'Asha Rao', username, password: 'secret1', mobile_number: '9876543210', email: email.toUpperCase() });
    expect(reg.statusCode, reg.body).toBe(201);
    const { token } = (await call(app, 'POST', '/api/login', { username, password: 'secret1' })).json<{ token: string }>();
    expect(await me(token)).toMatchObject({ role: 'user', email, email_verified: false });

    const mail = await mailTo(smtp.received, to(email));
    expect(mail.parsed.subject).toBe('Confirm your email address');
    expect(mail.parsed.text).toContain(`${PUBLIC_URL}/verify-email?token=`);
    expect(mail.parsed.html).toContain(`${PUBLIC_URL}/verify-email?token=`);
    expect(mail.from).toBe('auctions@test.example');
    const link = linkToken(mail, '/verify-email');

    expect((await call(app, 'POST', '/api/email/verify', { token: link })).statusCode).toBe(204);
    expect(await me(token)).toMatchObject({ email, email_verified: true });
    expectError(await call(app, 'POST', '/api/email/verify', { token: link }), 400, 'TOKEN_INVALID');
    expectError(await call(app, 'POST', '/api/email/verify', { token: 'not-a-token' }), 400, 'TOKEN_INVALID');
  });

  it('a confirmed address belongs to one account of a kind; an admin may use a bidder’s', async () => {
    const a = await signUpUser(app);
    const b = await signUpUser(app);
    const email = await confirmed(a.token);
    // The answer does not tell whether the address is taken; its link does, to whoever holds the mailbox.
    const before = smtp.received.length;
    expect((await call(app, 'PUT', '/api/me/email', { email: email.toUpperCase(), password: b.password }, b.token)).statusCode).toBe(202);
    const link = linkToken(await mailTo(smtp.received, (r) => smtp.received.indexOf(r) >= before && to(email)(r)), '/verify-email');
    expectError(await call(app, 'POST', '/api/email/verify', { token: link }), 409, 'EMAIL_TAKEN');
    expect(await me(b.token)).toMatchObject({ email, email_verified: false, confirmed_email: null });
    const admin = await signUpAdmin(app);
    await confirmed(admin.token, email);
    expect(await me(admin.token)).toMatchObject({ role: 'admin', email, email_verified: true });
  });

  it('a link refused because another account confirmed the address works once the address is free again', async () => {
    const a = await signUpUser(app);
    const b = await signUpUser(app);
    const email = await confirmed(a.token, address(), a.password);
    const before = smtp.received.length;
    expect((await call(app, 'PUT', '/api/me/email', { email, password: b.password }, b.token)).statusCode).toBe(202);
    const link = linkToken(await mailTo(smtp.received, (r) => smtp.received.indexOf(r) >= before && to(email)(r)), '/verify-email');
    expectError(await call(app, 'POST', '/api/email/verify', { token: link }), 409, 'EMAIL_TAKEN');
    expect((await call(app, 'DELETE', '/api/me/email', { password: a.password }, a.token)).statusCode).toBe(204);
    const res = await call(app, 'POST', '/api/email/verify', { token: link });
    expect(res.statusCode, res.body).toBe(204);
    expect(await me(b.token)).toMatchObject({ email, email_verified: true });
  });

  it('a newer address replaces the waiting one, and the older link stops working; the confirmed one stays until then', async () => {
    const u = await signUpUser(app);
    const first = await confirmed(u.token);
    const second = address();
    const third = address();
    expect((await call(app, 'PUT', '/api/me/email', { email: second, password: u.password }, u.token)).statusCode).toBe(202);
    const secondLink = linkToken(await mailTo(smtp.received, to(second)), '/verify-email');
    expect(await me(u.token)).toMatchObject({ email: second, email_verified: false, confirmed_email: first });
    expect((await call(app, 'PUT', '/api/me/email', { email: third, password: u.password }, u.token)).statusCode).toBe(202);
    expectError(await call(app, 'POST', '/api/email/verify', { token: secondLink }), 400, 'TOKEN_INVALID');
    // Still the first until the third is confirmed: a reset goes there.
    expect(await sqlRow(app, 'select email from users where id = ?', u.user.id)).toEqual({ email: first });
    expect((await call(app, 'POST', '/api/email/verify', { token: linkToken(await mailTo(smtp.received, to(third)), '/verify-email') })).statusCode).toBe(204);
    expect(await me(u.token)).toMatchObject({ email: third, email_verified: true });
  });

  it('refuses what is not an address, and removes one on request', async () => {
    const u = await signUpUser(app);
    for (const email of ['nobody', 'a@b', 'a b@example.com', 'a@..com', 'a@example..com', 'a\u001b@example.com', 'a\u202e@example.com', 'a@example.c', `${'x'.repeat(250)}@example.com`]) {
      expectError(await call(app, 'PUT', '/api/me/email', { email, password: u.password }, u.token), 400, 'VALIDATION');
    }
    await confirmed(u.token);
    expect((await call(app, 'DELETE', '/api/me/email', { password: u.password }, u.token)).statusCode).toBe(204);
    expect(await me(u.token)).toMatchObject({ email: null, email_verified: false });
    expectError(await call(app, 'GET', '/api/me'), 401, 'UNAUTHENTICATED');
  });

  it('refuses RFC 2047 encoded-words and header-breaking characters, at sign-up and later, naming the field', async () => {
    const u = await signUpUser(app);
    const forms = [
      '=?utf-8?q?x?=@example.com', '=?UTF-8?B?YWRtaW4=?=@example.com', 'a=?iso-8859-1?q?b?=c@example.com',
      'x@=?utf-8?q?example?=.com', 'x@example.=?utf-8?q?com?=', 'a=?b@example.com',
      'a\u2028b@example.com', 'a\u2029b@example.com', 'a\r\nbcc:b@example.com', 'a@example.com\nBcc: c@example.com',
    ];
    for (const email of forms) {
      expect(expectError(await call(app, 'PUT', '/api/me/email', { email, password: u.password }, u.token), 400, 'VALIDATION').field, email).toBe('email');
      const reg = await call(app, 'POST', '/api/register', { name: 'Asha Rao', username: uniqueName('u'), password: 'secret1', mobile_number: '9876543210', email });
      expect(expectError(reg, 400, 'VALIDATION').field, email).toBe('email');
    }
    // An = or a ? alone is an ordinary character of an address.
    for (const email of ['a=b@example.com', 'what?@example.com', 'a?=b@example.com']) {
      expect((await call(app, 'PUT', '/api/me/email', { email, password: u.password }, u.token)).statusCode, email).toBe(202);
    }
    expect(await sqlRow(app, 'select count(*) as n from mail_outbox where to_address like ?', '%=?%')).toEqual({ n: 0 });
  });
});

describe('password reset', () => {
  it('a mailed link sets a new password once; every session of the account ends', async () => {
    const u = await signUpUser(app);
    const email = await confirmed(u.token);
    const forgot = await call(app, 'POST', '/api/password/forgot', { email: email.toUpperCase() });
    expect(forgot.statusCode).toBe(202);
    const mail = await mailTo(smtp.received, to(email, /Reset/));
    expect(mail.parsed.text).toContain(u.username);
    expect(mail.parsed.text).toContain('30 minutes');
    const link = linkToken(mail, '/reset-password');
    // Only the token's hash is kept.
    expect(await sqlRow(app, 'select count(*) as n from account_tokens where token_hash = ?', link)).toEqual({ n: 0 });

    expect((await call(app, 'POST', '/api/password/reset', { token: link, password: 'brand-new-1' })).statusCode).toBe(204);
    expectError(await call(app, 'GET', '/api/me', undefined, u.token), 401, 'UNAUTHENTICATED');
    expectError(await call(app, 'POST', '/api/login', { username: u.username, password: u.password }), 400, 'INVALID_CREDENTIALS');
    expect((await call(app, 'POST', '/api/login', { username: u.username, password: 'brand-new-1' })).statusCode).toBe(200);
    expectError(await call(app, 'POST', '/api/password/reset', { token: link, password: 'another-22' }), 400, 'TOKEN_INVALID');
  });

  it('a reset closes the account’s live sockets on both transports', async () => {
    const base = await listen(app);
    const u = await signUpUser(app);
    const email = await confirmed(u.token);
    const io = await connect(base, u.token);
    let down = false;
    io.socket.on('disconnect', () => { down = true; });
    const ws = await connectWs(base, u.token);
    try {
      await eventually(() => expect(ws.messages.some((m) => m.type === 'ready')).toBe(true));
      await call(app, 'POST', '/api/password/forgot', { email });
      const link = linkToken(await mailTo(smtp.received, to(email, /Reset/)), '/reset-password');
      expect(down).toBe(false);
      expect((await call(app, 'POST', '/api/password/reset', { token: link, password: 'brand-new-2' })).statusCode).toBe(204);
      await eventually(() => {
        expect(down).toBe(true);
        expect(ws.closeCode()).toBe(4401);
      });
    } finally {
      io.close();
      ws.close();
    }
  });

  it('works by username for admins, and a reset link of another request stops working after one is used', async () => {
    const a = await signUpAdmin(app);
    const email = await confirmed(a.token);
    expect((await call(app, 'POST', '/api/password/forgot', { username: ` ${a.username.toUpperCase()} `, role: 'admin' })).statusCode).toBe(202);
    expect((await call(app, 'POST', '/api/password/forgot', { username: a.username, role: 'admin' })).statusCode).toBe(202);
    await mailTo(smtp.received, (r) => r.to.includes(email) && smtp.received.filter(to(email, /Reset/)).length === 2);
    const [first, second] = smtp.received.filter(to(email, /Reset/)).map((m) => linkToken(m, '/reset-password'));
    expect(smtp.received.find(to(email, /Reset/))!.parsed.text).toContain('admin account');
    expect(smtp.received.find(to(email, /Reset/))!.parsed.text).toMatch(/reset-password\?token=[^\s&]+&portal=admin/);
    expect((await call(app, 'POST', '/api/password/reset', { token: second, password: 'admin-new-1' })).statusCode).toBe(204);
    expectError(await call(app, 'POST', '/api/password/reset', { token: first, password: 'admin-new-2' }), 400, 'TOKEN_INVALID');
    expect((await call(app, 'POST', '/api/admin/login', { username: a.username, password: 'admin-new-1' })).statusCode).toBe(200);
  });

  it('a link is good for 30 minutes', async () => {
    const u = await signUpUser(app);
    const email = await confirmed(u.token);
    await call(app, 'POST', '/api/password/forgot', { username: u.username });
    const link = linkToken(await mailTo(smtp.received, to(email, /Reset/)), '/reset-password');
    clock.advance(30 * 60_000 + 1);
    expectError(await call(app, 'POST', '/api/password/reset', { token: link, password: 'too-late-1' }), 400, 'TOKEN_INVALID');
    expect((await call(app, 'POST', '/api/login', { username: u.username, password: u.password })).statusCode).toBe(200);
  });

  it('answers the same whether or not an account matches, and mails only a confirmed address', async () => {
    const known = await signUpUser(app);
    const email = await confirmed(known.token);
    const unconfirmed = await signUpUser(app);
    const pending = address();
    await call(app, 'PUT', '/api/me/email', { email: pending, password: unconfirmed.password }, unconfirmed.token);
    const answers = await Promise.all([
      { email }, { email: address() }, { username: known.username }, { username: uniqueName('nobody') }, { email: pending }, { username: known.username, role: 'admin' as const },
    ].map((body) => call(app, 'POST', '/api/password/forgot', body)));
    for (const res of answers) {
      expect(res.statusCode).toBe(202);
      expect(res.body).toBe(answers[0]!.body);
    }
    await mailTo(smtp.received, () => smtp.received.filter(to(email, /Reset/)).length === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.filter((r) => /Reset/.test(r.parsed.subject ?? '')).map((r) => r.to[0])).toEqual([email, email]);
    expectError(await call(app, 'POST', '/api/password/forgot', {}), 400, 'VALIDATION');
    expectError(await call(app, 'POST', '/api/password/forgot', { username: 'a', email: 'a@example.com' }), 400, 'VALIDATION');
  });

  it('takes as long for an unknown account as for a known one (median of 50 each, under 20 ms apart)', async () => {
    const known = await signUpUser(app);
    const email = await confirmed(known.token);
    const times = { known: [] as number[], unknown: [] as number[] };
    const time = async (body: object) => {
      const t0 = process.hrtime.bigint();
      const res = await call(app, 'POST', '/api/password/forgot', body);
      expect(res.statusCode).toBe(202);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    for (let i = 0; i < 50; i++) {
      times.known.push(await time({ email }));
      times.unknown.push(await time({ email: `nobody${i}@example.com` }));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(Math.abs(median(times.known) - median(times.unknown))).toBeLessThan(20);
  });

  it('is limited per account as well as per address, whether or not the account exists', async () => {
    await app.close();
    await smtp.close();
    await start({ rateLimit: true });
    for (const username of [uniqueName('ghost'), (await signUpUser(app)).username]) {
      for (let i = 0; i < 5; i++) expect((await call(app, 'POST', '/api/password/forgot', { username })).statusCode).toBe(202);
      expectError(await call(app, 'POST', '/api/password/forgot', { username }), 429, 'RATE_LIMITED');
    }
  });
});

describe('notice emails', () => {
  it('won, outbid and ending soon are on by default; the settings change them per kind', async () => {
    const u = await signUpUser(app);
    const got = (await call(app, 'GET', '/api/me/notification-settings', undefined, u.token)).json<{ email_verified: boolean; email: Record<string, boolean> }>();
    expect(got).toEqual({ email_verified: false, email: { outbid: true, won: true, lost: false, reinstated: false, ending_soon: true, extended: false, unsold: false, bought_now: false } });
    const put = await call(app, 'PUT', '/api/me/notification-settings', { email: { outbid: false, lost: true } }, u.token);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ email: { outbid: false, lost: true, won: true, ending_soon: true } });
    expectError(await call(app, 'PUT', '/api/me/notification-settings', { email: { won: 'yes' } }, u.token), 400, 'VALIDATION');
    // A kind the platform does not have changes nothing.
    const unknown = await call(app, 'PUT', '/api/me/notification-settings', { email: { spam: true } }, u.token);
    expect(unknown.json()).toEqual(put.json());
    const admin = await signUpAdmin(app);
    expectError(await call(app, 'GET', '/api/me/notification-settings', undefined, admin.token), 403, 'FORBIDDEN');
  });

  it('an outbid bidder is mailed once per lot in 10 minutes, with the lot’s link and a one-click unsubscribe', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [lot] } = await createAuction(app, admin.token, { now: clock.t, endsIn: 2 * HOUR });
    const a = await richBidder(app, 10_000, [auctionId]);
    const b = await richBidder(app, 10_000, [auctionId]);
    const email = await confirmed(a.token);
    expect((await bid(app, a.token, lot!, 100)).statusCode).toBe(201);
    expect((await bid(app, b.token, lot!, 200)).statusCode).toBe(201);

    const mail = await mailTo(smtp.received, to(email, /Outbid/));
    expect(mail.parsed.subject).toMatch(/^Outbid on Product /);
    expect(mail.parsed.text).toContain('₹200.');
    expect(mail.parsed.text).toContain(`${PUBLIC_URL}/auctions/${auctionId}/products/${lot}`);
    expect(mail.parsed.html).toContain(`${PUBLIC_URL}/auctions/${auctionId}/products/${lot}`);
    expect(headerOf(mail.parsed, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = /<([^>]+)>/.exec(headerOf(mail.parsed, 'list-unsubscribe') ?? '')![1]!;
    expect(oneClick.startsWith(`${PUBLIC_URL}/api/unsubscribe?token=`)).toBe(true);

    // Outbid twice more within 10 minutes (a minute apart, so each is a notice of its own): no more mail.
    for (const [who, amount] of [[a, 300], [b, 400], [a, 500], [b, 600]] as const) {
      clock.advance(61_000);
      expect((await bid(app, who.token, lot!, amount)).statusCode).toBe(201);
    }
    const notices = await sqlRow<{ n: number }>(app, "select count(*) as n from notifications where user_id = ? and kind = 'outbid'", a.user.id);
    expect(Number(notices!.n)).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter(to(email, /Outbid/))).toHaveLength(1);
    // Past the 10 minutes: the next one is mailed.
    clock.advance(10 * 60_000);
    expect((await bid(app, a.token, lot!, 700)).statusCode).toBe(201);
    expect((await bid(app, b.token, lot!, 800)).statusCode).toBe(201);
    await mailTo(smtp.received, () => smtp.received.filter(to(email, /Outbid/)).length === 2);
    expect(smtp.received.filter(to(email, /Outbid/))[1]!.parsed.text).toContain('₹800.');

    // RFC 8058's one-click POST, as a mail program sends it: no session, a form body.
    const url = new URL(oneClick);
    const res = await app.inject({ method: 'POST', url: `${url.pathname}${url.search}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ kind: 'outbid', message: 'You will no longer get emails about being outbid.' });
    clock.advance(11 * 60_000);
    expect((await bid(app, a.token, lot!, 900)).statusCode).toBe(201);
    expect((await bid(app, b.token, lot!, 1000)).statusCode).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter(to(email, /Outbid/))).toHaveLength(2);
    expect(await sqlRow(app, 'select count(*) as n from notifications where mailed_at is null')).toEqual({ n: 0 });
  });

  it('a standing notice replaced within its minute is mailed again, spacing allowing', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [lot] } = await createAuction(app, admin.token, { now: clock.t, endsIn: 2 * HOUR });
    const a = await richBidder(app, 10_000, [auctionId]);
    const b = await richBidder(app, 10_000, [auctionId]);
    const email = await confirmed(a.token);
    await call(app, 'PUT', '/api/me/notification-settings', { email: { reinstated: true } }, a.token);
    expect((await bid(app, a.token, lot!, 100)).statusCode).toBe(201);
    const outbid = await bid(app, b.token, lot!, 200);
    await mailTo(smtp.received, to(email, /Outbid/));
    // In the same minute, b cancels: a leads again, and that notice replaces the outbid one in place.
    const cancel = await call(app, 'POST', '/api/rollback-bid', { bid_id: outbid.json<{ bid: { bid_id: number } }>().bid.bid_id }, b.token);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const mail = await mailTo(smtp.received, to(email, /lead again/));
    expect(mail.parsed.text).toContain('A higher bid was cancelled');
  });

  it('a mail program’s one-click POST may be multipart', async () => {
    const u = await signUpUser(app);
    const token = (await import('../../mail/links.js')).UnsubscribeTokens;
    const signed = new token(new TextEncoder().encode(TEST_SECRET)).sign(u.user.id, 'won');
    const boundary = 'x-boundary';
    const res = await app.inject({
      method: 'POST', url: `/api/unsubscribe?token=${encodeURIComponent(signed)}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(app, 'GET', '/api/me/notification-settings', undefined, u.token)).json()).toMatchObject({ email: { won: false, outbid: true } });
  });

  it('the unsubscribe page’s POST needs the signed token, and nothing else', async () => {
    const u = await signUpUser(app);
    expectError(await call(app, 'POST', '/api/unsubscribe', { token: `${u.user.id}.won.${'A'.repeat(32)}` }), 400, 'TOKEN_INVALID');
    expectError(await call(app, 'POST', '/api/unsubscribe', {}), 400, 'VALIDATION');
  });

  it('a bidder without a confirmed address, or with the kind off, gets no mail; the notice is still marked done', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [lot] } = await createAuction(app, admin.token, { now: clock.t, endsIn: 2 * HOUR });
    const a = await richBidder(app, 10_000, [auctionId]);
    const b = await richBidder(app, 10_000, [auctionId]);
    const c = await richBidder(app, 10_000, [auctionId]);
    const emailB = await confirmed(b.token);
    await call(app, 'PUT', '/api/me/notification-settings', { email: { outbid: false } }, b.token);
    expect((await bid(app, a.token, lot!, 100)).statusCode).toBe(201);
    expect((await bid(app, b.token, lot!, 200)).statusCode).toBe(201);
    expect((await bid(app, c.token, lot!, 300)).statusCode).toBe(201);
    const until = Date.now() + 3000;
    while (Number((await sqlRow<{ n: number }>(app, 'select count(*) as n from notifications where mailed_at is null'))!.n) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await sqlRow(app, 'select count(*) as n from notifications where mailed_at is null')).toEqual({ n: 0 });
    expect(smtp.received.filter((r) => r.to.includes(emailB) && /Outbid/.test(r.parsed.subject ?? ''))).toHaveLength(0);
  });
});
