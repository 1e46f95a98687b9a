/**
 * Two processes (two apps in this test process) on one PostgreSQL and one SMTP server: whichever
 * process a change lands on, its mail is sent once, by the process that keeps the clock; when that
 * process stops, the other takes over and sends what is left (docs/email.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { freshTestDatabase } from '../db/testing.js';
import { bid, call, createAuction, makeApp, richBidder, signUpAdmin, sqlRow } from '../test/helpers.js';
import { linkToken, mailTo, smtpServer } from '../test/mail-helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const unsent = async (app: App) => Number((await sqlRow<{ n: number }>(app, 'select count(*) as n from mail_outbox where sent_at is null'))!.n);

describe('two processes on one PostgreSQL', () => {
  it('send every mail once, whichever process wrote it; the other takes over when the sender stops', async () => {
    const smtp = await smtpServer();
    cleanups.push(smtp.close);
    const db = freshTestDatabase('postgres');
    cleanups.push(() => db.drop());
    const apps: App[] = [];
    for (let i = 0; i < 2; i++) {
      const app = await makeApp({ databaseUrl: db.url, smtpUrl: smtp.url, mailFrom: 'Auctions <auctions@test.example>', autoSettle: false }, { mail: { pollMs: 25 } });
      cleanups.push(async () => { await app.close(); });
      apps.push(app);
    }
    // The process that keeps the clock sends the mail (the first to be ready, here).
    const until0 = Date.now() + 5000;
    while (!apps.some((a) => a.ctx.scheduler.active) && Date.now() < until0) await new Promise((r) => setTimeout(r, 20));
    const [a0, a1] = (apps[0]!.ctx.scheduler.active ? apps : [...apps].reverse()) as [App, App];
    expect(a0.ctx.scheduler.active && !a1.ctx.scheduler.active).toBe(true);

    // Bidders on both processes give addresses and confirm them on the other one.
    const admin = await signUpAdmin(a0);
    const { auctionId, productIds: [lot] } = await createAuction(a1, admin.token);
    const bidders = await Promise.all(Array.from({ length: 6 }, (_, i) => richBidder(apps[i % 2]!, 100_000, [auctionId])));
    await Promise.all(bidders.map(async (b, i) => {
      const email = `bidder${i}@example.com`;
      expect((await call(apps[i % 2]!, 'PUT', '/api/me/email', { email, password: b.password }, b.token)).statusCode).toBe(202);
      const mail = await mailTo(smtp.received, (r) => r.to.includes(email));
      expect((await call(apps[(i + 1) % 2]!, 'POST', '/api/email/verify', { token: linkToken(mail, '/verify-email') })).statusCode).toBe(204);
    }));
    // Outbid notices from bids on both processes, and resets asked on both.
    for (let round = 0; round < 3; round++) {
      for (const [i, b] of bidders.entries()) expect((await bid(apps[i % 2]!, b.token, lot!, 100 * (round * bidders.length + i + 1))).statusCode).toBe(201);
    }
    await Promise.all(bidders.map((_, i) => call(apps[i % 2]!, 'POST', '/api/password/forgot', { email: `bidder${i}@example.com` })));

    const settled = async () => {
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        const pending = Number((await sqlRow<{ n: number }>(a0, 'select count(*) as n from notifications where mailed_at is null'))!.n);
        if (pending === 0 && (await unsent(a0)) === 0) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('mail still waiting after 10 s');
    };
    await settled();
    const total = Number((await sqlRow<{ n: number }>(a0, 'select count(*) as n from mail_outbox'))!.n);
    // 6 confirmations, 6 resets, and one outbid mail each (each was outbid 2 or 3 times; one per lot in 10 minutes).
    expect(total).toBe(18);
    await new Promise((r) => setTimeout(r, 200));
    const ids = smtp.received.map((r) => r.parsed.messageId);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);

    // The sending process stops; mail written on the other is still sent, once.
    await a0.close();
    expect((await call(a1, 'POST', '/api/password/forgot', { email: 'bidder0@example.com' })).statusCode).toBe(202);
    const until = Date.now() + 15_000;
    while (smtp.received.length < total + 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(smtp.received).toHaveLength(total + 1);
    expect(await unsent(a1)).toBe(0);
  }, 60_000);
});
