/**
 * The outbox on both stores: a mail written in a transaction is sent after commit, once, to a real SMTP
 * server in the test process; one rolled back never is; a server that refuses for now is tried again
 * later with the same Message-ID, one that refuses for good or past the last retry is given up.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SMTPServerOptions } from 'smtp-server';
import { openStore, type MailDraft, type Store } from '../db/index.js';
import { freshTestDatabase, type TestDatabase } from '../db/testing.js';
import { eventually } from '../test/live-helpers.js';
import { smtpServer } from '../test/mail-helpers.js';
import { MailSender } from './sender.js';
import { messageIdOf, smtpTransport } from './transport.js';

const FROM = 'Auctions <no-reply@auction.test>';
// A store of its own for each test: what one leaves due is not the next one's.
let database: TestDatabase;
let store: Store;
beforeEach(async () => {
  database = freshTestDatabase();
  store = await openStore(database.url);
});
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  await store.close();
  await database.drop();
});

let seq = 0;
const draft = (to: string): MailDraft => ({
  kind: 'password_reset', to, subject: `Reset your password (${++seq})`, text: 'Open the link to choose a new password.', html: '<p>Open the link to choose a new password.</p>',
  headers: { 'X-Auction-Test': String(seq) },
});

/** A sender to `smtp` on a clock the test moves; what it did, in order. */
async function senderTo(opts: Partial<SMTPServerOptions> = {}) {
  const smtp = await smtpServer(opts);
  const transport = smtpTransport({ smtpUrl: smtp.url, from: FROM });
  const clock = { now: Date.parse('2026-11-27T10:00:00Z') };
  const outcomes: string[] = [];
  const errors: unknown[] = [];
  const sender = new MailSender(store, transport, {
    now: () => clock.now, pollMs: 20, retryDelaysMs: [60_000, 300_000],
    onError: (err) => { errors.push(err); },
    onOutcome: (o) => { outcomes.push(`${o.id}:${o.result}`); },
  });
  cleanups.push(async () => { await sender.stop(); transport.close(); await smtp.close(); expect(errors).toEqual([]); });
  return { smtp, sender, clock, outcomes };
}

const rowOf = async (id: number) => (await store.query<{ attempts: number; sent_at: number | null; failed_at: number | null; last_error: string | null }>(
  'select attempts, sent_at, failed_at, last_error from mail_outbox where id = ?', [id]))[0]!;

describe('the mail outbox', () => {
  it('sends what a committed transaction wrote, once, with its row\'s Message-ID; nothing of a rolled-back one', async () => {
    const { smtp, sender, clock, outcomes } = await senderTo();
    const ids = await store.transaction(async (tx) => [await tx.enqueueMail(draft('asha@example.com'), clock.now), await tx.enqueueMail(draft('ravi@example.com'), clock.now)]);
    await store.transaction(async (tx) => {
      await tx.enqueueMail(draft('never@example.com'), clock.now);
      throw new Error('rolled back');
    }).catch(() => undefined);
    sender.start();
    await eventually(() => expect(outcomes).toEqual([`${ids[0]}:sent`, `${ids[1]}:sent`]), 5000, 10);
    // More looks send nothing again.
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received.map((m) => m.to)).toEqual([['asha@example.com'], ['ravi@example.com']]);
    expect(smtp.received.map((m) => m.parsed.messageId)).toEqual(ids.map((id) => messageIdOf(id, FROM)));
    expect(smtp.received[0]!.parsed.headers.get('x-auction-test')).toBe(String(seq - 2));
    expect((await rowOf(ids[0]!)).sent_at).not.toBeNull();
    expect((await rowOf(ids[0]!)).attempts).toBe(1);
  });

  it('a refusal for now is tried again after the delay, the same mail; a refusal for good is given up at once', async () => {
    let refuseBusy = true;
    const { smtp, sender, clock, outcomes } = await senderTo({
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith('gone')) return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
        if (refuseBusy && address.address.startsWith('busy')) return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        callback();
      },
    });
    const [busy, gone] = await store.transaction(async (tx) => [await tx.enqueueMail(draft('busy@example.com'), clock.now), await tx.enqueueMail(draft('gone@example.com'), clock.now)]);
    sender.start();
    await eventually(() => expect(outcomes).toEqual([`${busy}:retry`, `${gone}:failed`]), 5000, 10);
    expect(await rowOf(gone)).toMatchObject({ attempts: 1, sent_at: null, failed_at: clock.now });
    expect((await rowOf(gone)).last_error).toContain('No such mailbox');
    // Not due before its delay.
    clock.now += 59_000;
    await new Promise((r) => setTimeout(r, 100));
    expect(outcomes).toHaveLength(2);
    refuseBusy = false;
    clock.now += 1_000;
    await eventually(() => expect(outcomes).toEqual([`${busy}:retry`, `${gone}:failed`, `${busy}:sent`]), 5000, 10);
    expect(smtp.received.map((m) => m.parsed.messageId)).toEqual([messageIdOf(busy, FROM)]);
    expect(await rowOf(busy)).toMatchObject({ attempts: 2, last_error: null });
  });

  it('a mail that keeps failing is given up after the last delay', async () => {
    const { sender, clock, outcomes } = await senderTo({
      onRcptTo(_address, _session, callback) { callback(Object.assign(new Error('Try again later'), { responseCode: 421 })); },
    });
    const id = await store.transaction((tx) => tx.enqueueMail(draft('busy@example.com'), clock.now));
    sender.start();
    await eventually(() => expect(outcomes).toEqual([`${id}:retry`]), 5000, 10);
    clock.now += 60_000;
    await eventually(() => expect(outcomes).toEqual([`${id}:retry`, `${id}:retry`]), 5000, 10);
    clock.now += 300_000;
    await eventually(() => expect(outcomes).toEqual([`${id}:retry`, `${id}:retry`, `${id}:failed`]), 5000, 10);
    expect(await rowOf(id)).toMatchObject({ attempts: 3, failed_at: clock.now });
  });

  it('sends nothing before it is started, nor once stopped (a kick included); started again, it sends what waited', async () => {
    const { sender, smtp, clock, outcomes } = await senderTo();
    const id = await store.transaction((tx) => tx.enqueueMail(draft('asha@example.com'), clock.now));
    await new Promise((r) => setTimeout(r, 100));
    expect(outcomes).toEqual([]);
    sender.start();
    await eventually(() => expect(outcomes).toEqual([`${id}:sent`]), 5000, 10);
    await sender.stop();
    const later = await store.transaction((tx) => tx.enqueueMail(draft('ravi@example.com'), clock.now));
    sender.kick();
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.received).toHaveLength(1);
    sender.start();
    await eventually(() => expect(outcomes).toEqual([`${id}:sent`, `${later}:sent`]), 5000, 10);
  });
});
