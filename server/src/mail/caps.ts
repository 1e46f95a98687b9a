/**
 * Mail per recipient (docs/email.md, "Limits"): whoever asks, at most a few mails of a kind reach one
 * address a day, so that nobody can flood a stranger's mailbox by naming it at sign-up, in address
 * changes or in reset requests. Counted in the transaction that writes the mail, under the count's row
 * lock, so requests racing for one address cannot all slip under the cap.
 */
import type { UnitOfWork } from '../db/index.js';

const DAY_MS = 24 * 3_600_000;

/** Per address, per window of 24 hours counted from the first mail in it. */
export const MAIL_CAPS = {
  /** Confirmation links: the address is nobody's yet, so anyone can name it. */
  verify_email: { max: 3, windowMs: DAY_MS },
  /** Reset links: to an account's confirmed address, asked for by anyone who knows its name. */
  password_reset: { max: 10, windowMs: DAY_MS },
} as const;

export type CappedMail = keyof typeof MAIL_CAPS;

/** Counts a mail of `kind` to `to`: whether it is within the cap (false: write nothing). */
export async function withinMailCap(tx: Pick<UnitOfWork, 'countMailTo'>, kind: CappedMail, to: string, now: number): Promise<boolean> {
  const { max, windowMs } = MAIL_CAPS[kind];
  return (await tx.countMailTo(to, kind, now, windowMs)) <= max;
}
