/** The mail outbox (docs/email.md): the types. */

/** A mail for the outbox: both parts written, and any extra headers. */
export interface MailDraft {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** A notice email's bidder and what it is about (`outbid:<auction>:<product>`), to space such emails out. */
  userId?: number;
  topic?: string;
}

/** An outbox row the sender reads. */
export interface MailRow extends Required<Omit<MailDraft, 'userId' | 'topic'>> {
  id: number;
  attempts: number;
  createdAt: number;
}

/** What a unit of work reads and writes of the mail outbox (docs/email.md); part of UnitOfWork (store.ts). */
export interface MailWork {
  /** Writes a mail to send after commit, due at once; its id (the Message-ID's). */
  enqueueMail(mail: MailDraft, now: number): Promise<number>;
  /** The server took it: it is not sent again. */
  mailSent(id: number, now: number): Promise<void>;
  /** It failed `attempts` times so far: try again at `nextAt`. */
  mailRetry(id: number, attempts: number, nextAt: number, error: string): Promise<void>;
  /** Refused for good, or out of attempts: never sent. */
  mailFailed(id: number, attempts: number, now: number, error: string): Promise<void>;
  /** Of these (user, topic) pairs, those a mail was written about since `since`, as `<user id>|<topic>`. */
  mailedTopicsSince(pairs: readonly { userId: number; topic: string }[], since: number): Promise<Set<string>>;
  /** Writes several mails (enqueueMail's rows) in one statement. */
  enqueueMails(mails: readonly MailDraft[], now: number): Promise<void>;
  /**
   * Counts one more mail of `kind` to `address` (lower case), in a window that starts afresh once
   * `windowMs` have passed since it began; the count in the window, this one included. Concurrent
   * transactions counting the same address and kind wait for each other.
   */
  countMailTo(address: string, kind: string, now: number, windowMs: number): Promise<number>;
}
