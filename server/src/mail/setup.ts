import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import type { App } from '../context.js';
import type { Store } from '../db/index.js';
import type { Metrics } from '../metrics.js';
import { fromRepoRoot } from '../paths.js';
import { UnsubscribeTokens } from './links.js';
import { NoticeMails } from './notice-mails.js';
import { MailSender } from './sender.js';
import { fileTransport, smtpTransport, type MailTransport } from './transport.js';

/** The mail outbox's sender options (BuildOptions.mail: tests pass their own SMTP server, quick polls and retries). */
export interface MailOptions { transport?: MailTransport; pollMs?: number; retryDelaysMs?: readonly number[] }

export interface Mail {
  transport: MailTransport;
  unsubscribeTokens: UnsubscribeTokens;
  sender: MailSender;
}

/** The first web address in a text (the link of a mail written to a file, for the log). */
const firstLink = (text: string) => /https?:\/\/\S+/.exec(text)?.[0];

/**
 * Mail (docs/email.md): written to the outbox in the transaction that causes it; sent after commit by
 * the process that keeps the clock, over SMTP when SMTP_URL is set, else as files in data/outbox/.
 * `metrics` is read per outcome (the metrics are made after the sender). Nothing is started here.
 */
export function setupMail(
  app: App,
  config: Config,
  options: MailOptions | undefined,
  deps: { store: Store; now: () => number; secret: Uint8Array; metrics: () => Metrics | null },
): Mail {
  const { store, now, secret, metrics } = deps;
  const outboxDir = store.file ? path.join(path.dirname(store.file), 'outbox') : store.kind === 'postgres' ? fromRepoRoot('data/outbox') : path.join(os.tmpdir(), 'auction-outbox');
  const localSite = ['localhost', '127.0.0.1', '[::1]'].includes(new URL(config.publicUrl).hostname);
  const mailTransport = options?.transport ?? (config.smtpUrl
    ? smtpTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom })
    : fileTransport({
      dir: outboxDir, from: config.mailFrom,
      // Without a mail server the link is in the log, so a person trying the app can follow it.
      // Only for a site on this machine (PUBLIC_URL at localhost, as `npm start` has it): elsewhere a log
      // line must not hold a working reset link.
      onWritten: (file, mail) => app.log.info({ file, to: mail.to, subject: mail.subject, ...(localSite ? { link: firstLink(mail.text) } : {}) }, 'mail written to a file (no SMTP_URL)'),
    }));
  const unsubscribeTokens = new UnsubscribeTokens(secret);
  const noticeMails = new NoticeMails(store, { now, publicUrl: config.publicUrl, unsubscribe: unsubscribeTokens });
  const mailSender = new MailSender(store, mailTransport, {
    now,
    ...(options?.pollMs ? { pollMs: options.pollMs } : {}),
    ...(options?.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    beforeDrain: () => noticeMails.run(),
    onError: (err) => app.log.error({ err }, 'mail outbox'),
    onOutcome: (o) => {
      metrics()?.mailSends.inc({ result: o.result });
      if (o.result === 'sent') app.log.debug({ mail: o.id, kind: o.kind }, 'mail sent');
      else app.log.warn({ mail: o.id, kind: o.kind, error: o.error }, o.result === 'retry' ? 'mail not sent; will retry' : 'mail given up');
    },
  });
  return { transport: mailTransport, unsubscribeTokens, sender: mailSender };
}
