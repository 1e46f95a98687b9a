/**
 * The two ways a mail leaves: a real SMTP server in this process (smtp-server) receives it and
 * mailparser reads it back; the files written without SMTP parse the same way.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SMTPServerOptions } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { headerOf as header, smtpServer as startSmtpServer } from '../test/mail-helpers.js';
import { fileTransport, MailSendError, messageIdOf, smtpTransport, type OutgoingMail } from './transport.js';

const FROM = 'Auctions <no-reply@auction.test>';
const mail = (id: number): OutgoingMail => ({
  id, to: 'asha@example.com', subject: 'You were outbid on Brass lamp',
  text: 'Someone bid ₹1,250.00 on Brass lamp.\nhttp://localhost:3000/user/lots/L1',
  html: '<p>Someone bid <b>₹1,250.00</b> on <a href="http://localhost:3000/user/lots/L1">Brass lamp</a>.</p>',
  headers: { 'List-Unsubscribe': '<http://localhost:3000/api/email/unsubscribe?token=abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

/** An SMTP server (test/mail-helpers.ts), stopped after the test. */
async function smtpServer(opts: Partial<SMTPServerOptions> = {}) {
  const server = await startSmtpServer(opts);
  cleanups.push(server.close);
  return server;
}

describe('SMTP', () => {
  it('delivers both parts, the headers given, and a Message-ID that is the same on every attempt', async () => {
    const smtp = await smtpServer();
    const t = smtpTransport({ smtpUrl: smtp.url, from: FROM });
    cleanups.push(() => t.close());
    await t.send(mail(41));
    await t.send(mail(41));
    expect(smtp.received).toHaveLength(2);
    const [first, again] = smtp.received;
    expect(first!.to).toEqual(['asha@example.com']);
    expect(first!.from).toBe('no-reply@auction.test');
    expect(first!.parsed.subject).toBe('You were outbid on Brass lamp');
    expect(first!.parsed.text).toContain('₹1,250.00');
    expect(first!.parsed.html).toContain('<b>₹1,250.00</b>');
    expect(header(first!.parsed, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(header(first!.parsed, 'list-unsubscribe')).toBe('<http://localhost:3000/api/email/unsubscribe?token=abc>');
    expect(first!.parsed.messageId).toBe(messageIdOf(41, FROM));
    expect(again!.parsed.messageId).toBe(first!.parsed.messageId);
  });

  it('signs in with the user and password of SMTP_URL (percent-decoded)', async () => {
    const logins: string[] = [];
    const smtp = await smtpServer({
      authOptional: false, allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.username === 'mailer@auction.test' && auth.password === 'p@ss:word') callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
    });
    const t = smtpTransport({ smtpUrl: smtp.url.replace('smtp://', 'smtp://mailer%40auction.test:p%40ss%3Aword@'), from: FROM });
    cleanups.push(() => t.close());
    await t.send(mail(5));
    expect(logins).toEqual(['mailer@auction.test:p@ss:word']);
    expect(smtp.received).toHaveLength(1);
  });

  it('a refusal for good (5xx) is permanent; a refusal for now (4xx) is not', async () => {
    const refusing = await smtpServer({
      onRcptTo(address, _session, callback) {
        const err = Object.assign(new Error(address.address.startsWith('gone') ? 'No such mailbox' : 'Try again later'), { responseCode: address.address.startsWith('gone') ? 550 : 451 });
        callback(err);
      },
    });
    const t = smtpTransport({ smtpUrl: refusing.url, from: FROM });
    cleanups.push(() => t.close());
    const gone = await t.send({ ...mail(1), to: 'gone@example.com' }).then(() => null, (e: unknown) => e);
    expect(gone).toBeInstanceOf(MailSendError);
    expect((gone as MailSendError).permanent).toBe(true);
    const later = await t.send({ ...mail(2), to: 'busy@example.com' }).then(() => null, (e: unknown) => e);
    expect(later).toBeInstanceOf(MailSendError);
    expect((later as MailSendError).permanent).toBe(false);
    expect(refusing.received).toHaveLength(0);
  });

  it('a refusal of the sign-in or of the sender (a setup to put right) is not permanent', async () => {
    const strict = await smtpServer({
      authOptional: false, allowInsecureAuth: true,
      onAuth(_auth, _session, callback) { callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 })); },
    });
    const t = smtpTransport({ smtpUrl: strict.url.replace('smtp://', 'smtp://mailer:wrong@'), from: FROM });
    cleanups.push(() => t.close());
    const badLogin = await t.send(mail(8)).then(() => null, (e: unknown) => e);
    expect(badLogin).toBeInstanceOf(MailSendError);
    expect((badLogin as MailSendError).permanent).toBe(false);
    const noRelay = await smtpServer({
      onMailFrom(_address, _session, callback) { callback(Object.assign(new Error('Relay access denied'), { responseCode: 550 })); },
    });
    const t2 = smtpTransport({ smtpUrl: noRelay.url, from: FROM });
    cleanups.push(() => t2.close());
    const refusedFrom = await t2.send(mail(9)).then(() => null, (e: unknown) => e);
    expect(refusedFrom).toBeInstanceOf(MailSendError);
    expect((refusedFrom as MailSendError).permanent).toBe(false);
  });

  it('a server that accepts the connection and never answers fails the send within its deadline, to be tried again', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const sockets = new Set<net.Socket>();
    silent.on('connection', (s) => sockets.add(s));
    cleanups.push(() => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); silent.close(() => resolve()); }));
    const { port } = silent.address() as net.AddressInfo;
    const t = smtpTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM }, { timeoutMs: 300 });
    cleanups.push(() => t.close());
    const started = Date.now();
    const err = await t.send(mail(3)).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(MailSendError);
    expect((err as MailSendError).permanent).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('files, without SMTP', () => {
  it('writes each mail as <id>.eml that parses as the SMTP one does; a retry overwrites it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const t = fileTransport({ dir: path.join(dir, 'outbox'), from: FROM });
    await t.send(mail(7));
    await t.send(mail(7));
    expect(fs.readdirSync(path.join(dir, 'outbox'))).toEqual(['7.eml']);
    const parsed = await simpleParser(fs.readFileSync(path.join(dir, 'outbox', '7.eml')));
    expect(parsed.subject).toBe('You were outbid on Brass lamp');
    expect(parsed.text).toContain('₹1,250.00');
    expect(parsed.html).toContain('<b>₹1,250.00</b>');
    expect(parsed.messageId).toBe(messageIdOf(7, FROM));
    expect(header(parsed, 'list-unsubscribe')).toBe('<http://localhost:3000/api/email/unsubscribe?token=abc>');
  });

  it('a file holds a live link, so only the server\'s user may read it: the file 0600, a folder it creates 0700', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const outbox = path.join(dir, 'data', 'outbox');
    const t = fileTransport({ dir: outbox, from: FROM });
    // Whatever the process's umask lets through: a permissive one must not widen them.
    const umask = process.umask(0);
    try {
      await t.send(mail(8));
      // A file left half-written (a crash between write and rename) is not reused with its mode.
      fs.writeFileSync(path.join(outbox, '9.eml.tmp'), 'partial', { mode: 0o644 });
      await t.send(mail(9));
    } finally {
      process.umask(umask);
    }
    const mode = (file: string) => fs.statSync(file).mode & 0o777;
    expect(mode(outbox)).toBe(0o700);
    expect(mode(path.join(dir, 'data'))).toBe(0o700);
    expect(mode(path.join(outbox, '8.eml'))).toBe(0o600);
    expect(mode(path.join(outbox, '9.eml'))).toBe(0o600);
    expect(fs.readdirSync(outbox).sort()).toEqual(['8.eml', '9.eml']);
  });
});
