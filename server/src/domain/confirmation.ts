/**
 * Confirming an address (docs/email.md): the link mailed when an address is given, at sign-up or later.
 */
import { VERIFY_LINK_HOURS } from '@auction/shared';
import type { Role, UnitOfWork } from '../db/index.js';
import { withinMailCap } from '../mail/caps.js';
import { hashLinkToken, newLinkToken } from '../mail/links.js';
import { verifyEmailMail } from '../mail/messages.js';

export const VERIFY_LINK_MS = VERIFY_LINK_HOURS * 3_600_000;

/** Addresses are compared and stored without case (the local part's case is never relied on in practice). */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Where the links in a mail point. */
export interface LinkBase {
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
}

/**
 * In `tx`: makes `email` the account's address waiting for confirmation and mails it a link (any
 * earlier link stops working). Registration and PUT /me/email both come here. Past the address's cap
 * of confirmation mails (mail/caps.ts) nothing is mailed, and a link mailed before to the same address
 * still works; the answer is the same either way, so it tells nobody what else was asked of it.
 */
export async function sendConfirmation(tx: UnitOfWork, links: LinkBase, a: { role: Role; id: number; email: string; now: number }): Promise<void> {
  await tx.setPendingEmail(a.role, a.id, a.email);
  if (!(await withinMailCap(tx, 'verify_email', a.email, a.now))) return;
  await tx.spendAccountTokens(a.role, a.id, 'verify_email', a.now);
  const token = newLinkToken();
  await tx.insertAccountToken({ role: a.role, accountId: a.id, purpose: 'verify_email', tokenHash: hashLinkToken(token), email: a.email, now: a.now, expiresAt: a.now + VERIFY_LINK_MS });
  await tx.enqueueMail(verifyEmailMail({ to: a.email, link: `${links.publicUrl}/verify-email?token=${token}` }), a.now);
}
