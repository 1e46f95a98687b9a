/**
 * How a mail leaves the process: over SMTP (nodemailer) when SMTP_URL is set, otherwise as an `.eml`
 * file in a folder (data/outbox/ by default), so a person trying the app locally can open what it
 * sent. Either way a mail's Message-ID comes from its outbox row, so a retried send is recognisable
 * as the same mail.
 */
import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** One mail, ready to send: both parts written, every header it needs (List-Unsubscribe, …). */
export interface OutgoingMail {
  /** The outbox row's id: the Message-ID's local part, and the file's name. */
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Why a send failed, as far as the next attempt is concerned. */
export class MailSendError extends Error {
  /**
   * @param permanent the server refused this mail for good (a 5xx reply to its recipient or content):
   *   trying again will not help.
   */
  constructor(message: string, readonly permanent: boolean, cause?: unknown) {
    super(message, { cause });
  }
}

export interface MailTransport {
  readonly kind: 'smtp' | 'files';
  /** Sends or writes `mail`; rejects with MailSendError. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The domain a Message-ID is minted in: MAIL_FROM's. */
function messageDomain(from: string): string {
  const m = /@([^>\s]+)>?\s*$/.exec(from);
  return m?.[1] ?? 'localhost';
}

/** The Message-ID of an outbox row: the same on every attempt. */
export function messageIdOf(id: number, from: string): string {
  return `<mail-${id}@${messageDomain(from)}>`;
}

function message(mail: OutgoingMail, from: string) {
  return {
    from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html,
    headers: mail.headers ?? {}, messageId: messageIdOf(mail.id, from),
  };
}

/**
 * A reply of 500–599 (RFC 5321 §4.2.1) to the recipient or to the message is the server's final word
 * on this mail. The same reply to signing in, to the sender or to the connection is about this
 * installation (a wrong password, a From the server will not relay): every mail would get it, so it
 * is tried again once that is put right, not given up.
 */
function smtpError(err: unknown): MailSendError {
  const { responseCode: code, command } = err as { responseCode?: unknown; command?: unknown };
  const permanent = typeof code === 'number' && code >= 500 && code < 600 && (command === 'RCPT TO' || command === 'DATA');
  return new MailSendError(err instanceof Error ? err.message : String(err), permanent, err);
}

/**
 * SMTP through nodemailer: STARTTLS whenever the server offers it, one pooled connection, and
 * deadlines so a stalled server fails a send (to be retried) instead of holding it forever.
 */
export function smtpTransport(settings: { smtpUrl: string; from: string }, opts: { timeoutMs?: number } = {}): MailTransport {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const url = new URL(settings.smtpUrl);
  const secure = url.protocol === 'smtps:';
  const transporter = nodemailer.createTransport({
    host: url.hostname, port: url.port ? Number(url.port) : secure ? 465 : 587, secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    pool: true, maxConnections: 1,
    connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs,
  });
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transporter.sendMail(message(mail, settings.from));
      } catch (err) {
        throw smtpError(err);
      }
    },
    close: () => transporter.close(),
  };
}

/**
 * Each mail as `<dir>/<id>.eml` (written whole, then renamed into place; a retry overwrites it). A mail
 * holds a working link (a password reset), so only the server's own user may read it: each file is
 * 0600, and the folder, when it is created here, 0700 (a umask only ever takes bits away).
 */
export function fileTransport(settings: { dir: string; from: string; onWritten?: (file: string, mail: OutgoingMail) => void }): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'files',
    async send(mail) {
      try {
        const info = await transporter.sendMail(message(mail, settings.from));
        await fs.promises.mkdir(settings.dir, { recursive: true, mode: 0o700 });
        const file = path.join(settings.dir, `${mail.id}.eml`);
        const tmp = `${file}.tmp`;
        // A file left by a write cut short keeps its mode if written over: it is removed first, and
        // the new one is created (exclusively) at 0600.
        await fs.promises.rm(tmp, { force: true });
        await fs.promises.writeFile(tmp, info.message as Buffer, { mode: 0o600, flag: 'wx' });
        await fs.promises.rename(tmp, file);
        settings.onWritten?.(file, mail);
      } catch (err) {
        throw new MailSendError(err instanceof Error ? err.message : String(err), false, err);
      }
    },
    close: () => transporter.close(),
  };
}

