/**
 * The mail outbox's sender. Any process writes mails, each in the transaction of the change that causes
 * it (`tx.enqueueMail`); one process sends them, the one that leads the scheduler, never on a request's
 * path. It sends one mail at a time, oldest due first, and looks again every `pollMs` (or at once when
 * kicked after a commit).
 *
 * At least once: a mail is marked sent only after the server accepted it, so a crash in between sends it
 * again, with the same Message-ID (its row's). A failure is tried again after the next of `retryDelaysMs`;
 * a permanent refusal (5xx), or a failure after the last delay, marks it failed.
 */
import type { MailRow, Store } from '../db/index.js';
import { MailSendError, type MailTransport } from './transport.js';

/** After the 1st, 2nd, … failure: 1 min, 5 min, 15 min, 1 h, 3 h, 6 h; then the mail has failed. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000];

export interface MailSenderOptions {
  now: () => number;
  /** How often to look for due mails (other processes' too); ms. */
  pollMs?: number;
  retryDelaysMs?: readonly number[];
  /** Mails read per look. */
  batch?: number;
  onError: (err: unknown) => void;
  /** Run before each look for due mails, in the same process (notice-mails.ts turns notices into mails). */
  beforeDrain?: () => Promise<unknown>;
  /** Each mail sent, retried or given up (for the log). */
  onOutcome?: (outcome: { id: number; kind: string; result: 'sent' | 'retry' | 'failed'; error?: string }) => void;
}

export class MailSender {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private readonly pollMs: number;
  private readonly delays: readonly number[];
  private readonly batch: number;

  constructor(private readonly store: Store, private readonly transport: MailTransport, private readonly opts: MailSenderOptions) {
    this.pollMs = opts.pollMs ?? 2000;
    this.delays = opts.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.batch = opts.batch ?? 20;
  }

  /** Starts sending (this process leads). */
  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick();
  }

  /** Stops sending; resolves once a send in progress has finished and been recorded. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Looks for due mails now (a commit just wrote one), or right after the look in progress. */
  kick() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.drain().catch(this.opts.onError).finally(() => {
      this.running = null;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.kick();
        return;
      }
      this.timer = setTimeout(() => this.kick(), this.pollMs);
      this.timer.unref();
    });
  }

  /** Sends what is due until nothing is (or it is stopped). */
  private async drain() {
    await this.opts.beforeDrain?.();
    for (;;) {
      const due = await this.store.reads.dueMails(this.opts.now(), this.batch);
      for (const mail of due) {
        if (this.stopped) return;
        await this.sendOne(mail);
      }
      if (due.length < this.batch) return;
    }
  }

  private async sendOne(mail: MailRow) {
    const attempts = mail.attempts + 1;
    try {
      await this.transport.send({ id: mail.id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const permanent = err instanceof MailSendError && err.permanent;
      if (permanent || attempts > this.delays.length) {
        await this.store.transaction((tx) => tx.mailFailed(mail.id, attempts, this.opts.now(), error));
        this.opts.onOutcome?.({ id: mail.id, kind: mail.kind, result: 'failed', error });
      } else {
        await this.store.transaction((tx) => tx.mailRetry(mail.id, attempts, this.opts.now() + this.delays[attempts - 1]!, error));
        this.opts.onOutcome?.({ id: mail.id, kind: mail.kind, result: 'retry', error });
      }
      return;
    }
    await this.store.transaction((tx) => tx.mailSent(mail.id, this.opts.now()));
    this.opts.onOutcome?.({ id: mail.id, kind: mail.kind, result: 'sent' });
  }
}
