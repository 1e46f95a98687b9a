/**
 * Nobody can flood a mailbox through the platform (docs/email.md, "Limits"), on both stores with a real
 * SMTP server in the test process: confirmation links to one address are capped per day whoever asks
 * (sign-ups, address changes, racing or not), and reset links are counted per account however the
 * requests name it, and per address; the answers stay the same for everyone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { call, makeApp, makeClock, signUpUser, sqlRow, uniqueName } from '../../test/helpers.js';
import { linkToken, smtpServer, type Received } from '../../test/mail-helpers.js';

let smtp: Awaited<ReturnType<typeof smtpServer>>;
let app: App;
let clock: ReturnType<typeof makeClock>;

beforeEach(async () => {
  smtp = await smtpServer();
  clock = makeClock();
  app = await makeApp({ smtpUrl: smtp.url, publicUrl: 'https://auctions.test.example', autoSettle: false }, { now: clock.now, mail: { pollMs: 25 } });
});
afterEach(async () => {
  await app.close();
  await smtp.close();
});

const DAY = 24 * 3_600_000;
const victim = () => `victim.${uniqueName('v').toLowerCase()}@example.com`;
const mailsTo = (email: string, subject: RegExp) => smtp.received.filter((r: Received) => r.to.includes(email) && subject.test(r.parsed.subject ?? ''));
const register = (email: string) => call(app, 'POST', '/api/register', { name: 'Flood Test', username: uniqueName('f'), password: 'secret1', mobile_number: '9876543210', email });

/** Until every mail written has been handed to the SMTP server, and nothing more comes for a while (a reset's mail is written after its answer). */
async function settled() {
  let quiet = 0;
  for (const until = Date.now() + 10_000; quiet < 10 && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const waiting = await sqlRow<{ n: number }>(app, 'select count(*) as n from mail_outbox where sent_at is null and failed_at is null');
    quiet = Number(waiting!.n) === 0 ? quiet + 1 : 0;
  }
  expect(quiet, 'the outbox drained').toBe(10);
}

describe('confirmation links per address', () => {
  it('22 sign-ups naming one address at once, in any case: 3 mails reach it, and each sign-up is answered alike', async () => {
    const email = victim();
    const answers = await Promise.all(Array.from({ length: 22 }, (_, i) => register(i % 2 ? email.toUpperCase() : email)));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<{ message: string }>().message).toBe(answers[0]!.json<{ message: string }>().message);
    }
    await settled();
    expect(mailsTo(email, /Confirm/)).toHaveLength(3);
    expect(smtp.received).toHaveLength(3);
    // The next day, one more.
    clock.advance(DAY);
    expect((await register(email)).statusCode).toBe(201);
    await settled();
    expect(mailsTo(email, /Confirm/)).toHaveLength(4);
  });

  it('address changes of several accounts count with sign-ups; a link mailed before the cap still works', async () => {
    const email = victim();
    const [a, b, c] = [await signUpUser(app), await signUpUser(app), await signUpUser(app)];
    expect((await register(email)).statusCode).toBe(201);
    const put = (u: typeof a) => call(app, 'PUT', '/api/me/email', { email, password: u.password }, u.token);
    for (const u of [a, b, c, a, b, c]) {
      const res = await put(u);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ email, email_verified: false });
    }
    await settled();
    // The sign-up's, a's and b's.
    const mails = mailsTo(email, /Confirm/);
    expect(mails).toHaveLength(3);
    // a asked again past the cap: nothing was mailed, and the link a got before still confirms.
    expect((await call(app, 'POST', '/api/email/verify', { token: linkToken(mails[1]!, '/verify-email') })).statusCode).toBe(204);
    expect((await call(app, 'GET', '/api/me', undefined, a.token)).json()).toMatchObject({ email, email_verified: true });
  });
});

describe('reset links per account and per address', () => {
  it('Alice, alice, “ alice ”, her address in any case: one account, 5 links per 15 minutes, 10 a day; every answer the same', async () => {
    const name = uniqueName('Alice');
    const u = await signUpUser(app, name);
    const email = victim();
    expect((await call(app, 'PUT', '/api/me/email', { email, password: u.password }, u.token)).statusCode).toBe(202);
    await settled();
    expect((await call(app, 'POST', '/api/email/verify', { token: linkToken(mailsTo(email, /Confirm/)[0]!, '/verify-email') })).statusCode).toBe(204);
    const spellings = [{ username: name }, { username: name.toLowerCase() }, { username: ` ${name.toLowerCase()} ` }, { username: name.toUpperCase() }, { email }, { email: email.toUpperCase() }, { email: ` ${email} ` }];
    const ask = async () => {
      const answers = await Promise.all([...spellings, ...spellings].map((body) => call(app, 'POST', '/api/password/forgot', body)));
      for (const res of answers) {
        expect(res.statusCode).toBe(202);
        expect(res.body).toBe(answers[0]!.body);
      }
      await settled();
    };
    await ask();
    expect(mailsTo(email, /Reset/)).toHaveLength(5);
    clock.advance(16 * 60_000);
    await ask();
    expect(mailsTo(email, /Reset/)).toHaveLength(10);
    // Past the address's 10 a day, even with the account's budget back.
    clock.advance(16 * 60_000);
    await ask();
    expect(mailsTo(email, /Reset/)).toHaveLength(10);
    clock.advance(DAY);
    await ask();
    expect(mailsTo(email, /Reset/)).toHaveLength(15);
    // An unknown name's answer is the same.
    expect((await call(app, 'POST', '/api/password/forgot', { username: uniqueName('nobody') })).body).toBe((await call(app, 'POST', '/api/password/forgot', { username: name })).body);
  });
});
