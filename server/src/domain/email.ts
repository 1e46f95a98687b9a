/**
 * Accounts by email (docs/email.md): addresses and their confirmation, password reset by a mailed
 * link, and which notices a bidder also gets by email. Every mail is written to the outbox in the
 * transaction of the change that causes it, and sent after commit (mail/sender.ts); nothing here waits
 * for a mail server.
 */
import { NOTIFICATION_KINDS, RESET_LINK_MINUTES, type NotificationKind, type NotificationSettings } from '@auction/shared';
import type { AdminRow, Reads, Role, UserRow } from '../db/index.js';
import { refuse, type Result } from '../errors.js';
import { hashPassword } from '../auth/passwords.js';
import { hashLinkToken, newLinkToken, type UnsubscribeTokens } from '../mail/links.js';
import { NOTICE_KIND_LABELS, resetPasswordMail } from '../mail/messages.js';
import { normaliseEmail, sendConfirmation, type LinkBase } from './confirmation.js';
import type { Commands } from './commands.js';
import { accountByUsername, type Caller } from './accounts.js';
import type { DomainEvent } from './events.js';

export const RESET_LINK_MS = RESET_LINK_MINUTES * 60_000;

const invalidToken = () => refuse('TOKEN_INVALID', 'This link has expired or has already been used. Please ask for a new one.', 'token');

/**
 * PUT /me/email. The address already confirmed: nothing to do. Otherwise it waits for its link (the
 * confirmed one, if any, stays until then). Whether another account confirmed it is told only by the
 * link (409 EMAIL_TAKEN), to whoever holds the mailbox: answering here would tell anyone with an
 * account whose addresses are registered.
 */
export async function changeEmail(commands: Commands, links: LinkBase, caller: Caller, raw: string, now: number): Promise<Result<{ email: string; verified: boolean }>> {
  const email = normaliseEmail(raw);
  const account = await commands.reads.account(caller.role, caller.id);
  if (!account) return refuse('UNAUTHENTICATED', 'Please sign in');
  if (account.email === email) {
    // Back to the confirmed address: a pending one (and its link) is dropped.
    if (account.pendingEmail !== null) {
      await commands.run(async (tx) => {
        await tx.setPendingEmail(caller.role, caller.id, null);
        await tx.spendAccountTokens(caller.role, caller.id, 'verify_email', now);
        return { ok: true };
      });
    }
    return { ok: true, email, verified: true };
  }
  return commands.run(async (tx) => {
    await sendConfirmation(tx, links, { role: caller.role, id: caller.id, email, now });
    return { ok: true, email, verified: false };
  });
}

/** DELETE /me/email: no address any more, confirmed or waiting; its links stop working. */
export async function removeEmail(commands: Commands, caller: Caller, now: number): Promise<Result<object>> {
  return commands.run(async (tx) => {
    await tx.clearEmail(caller.role, caller.id);
    await tx.spendAccountTokens(caller.role, caller.id, 'verify_email', now);
    await tx.spendAccountTokens(caller.role, caller.id, 'password_reset', now);
    return { ok: true };
  });
}

/** POST /email/verify: the link's address becomes the account's confirmed one. */
export async function confirmEmail(commands: Commands, token: string, now: number): Promise<Result<object>> {
  try {
    return await confirmLinked(commands, token, now);
  } catch (err) {
    // Two accounts confirming one address at the same moment (PostgreSQL): the second meets the unique
    // index; its transaction rolled back, so its link still works once the address is free again.
    if (isUniqueViolation(err)) return refuse('EMAIL_TAKEN', 'Another account confirmed this email address first', 'email');
    throw err;
  }
}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return true;
  }
  return false;
}

async function confirmLinked(commands: Commands, token: string, now: number): Promise<Result<object>> {
  return commands.run(async (tx) => {
    const link = await tx.useAccountToken(hashLinkToken(token), 'verify_email', now);
    if (!link) return invalidToken();
    if (await tx.emailTaken(link.role, link.email, link.accountId)) return refuse('EMAIL_TAKEN', 'Another account confirmed this email address first', 'email');
    // The address was changed again (or removed) after this link was sent.
    if (!(await tx.confirmEmail(link.role, link.accountId, link.email))) return invalidToken();
    // A reset link sent to the address before stops working.
    await tx.spendAccountTokens(link.role, link.accountId, 'password_reset', now);
    return { ok: true };
  });
}

type Account = (UserRow | AdminRow) & { email: string | null };

/**
 * POST /password/forgot, after its answer: when an active account matches (a username, or a confirmed
 * address) and has a confirmed address, a reset link is mailed to it. The route answers before this
 * runs, so neither the answer nor its timing says whether an account matched.
 */
export async function forgotPassword(commands: Commands, links: LinkBase, input: { username?: string; email?: string; role: Role }, now: number): Promise<void> {
  const reads = commands.reads;
  const found: Account | null = input.email !== undefined
    ? await reads.accountByEmail(input.role, normaliseEmail(input.email))
    : await accountByUsername(reads, input.role, input.username ?? '');
  if (!found || found.email === null || found.status !== 'active') return;
  const to = found.email;
  const token = newLinkToken();
  const tokenHash = hashLinkToken(token);
  await commands.run(async (tx) => {
    // The address may have been removed or changed (or the account closed) since the read above.
    const current = await tx.accountEmail(input.role, found.id);
    if (!current || current.email !== to || current.status !== 'active') return { ok: true };
    await tx.insertAccountToken({ role: input.role, accountId: found.id, purpose: 'password_reset', tokenHash, email: to, now, expiresAt: now + RESET_LINK_MS });
    await tx.enqueueMail(resetPasswordMail({ to, name: found.name, username: found.username, admin: input.role === 'admin', link: `${links.publicUrl}/reset-password?token=${token}${input.role === 'admin' ? '&portal=admin' : ''}` }), now);
    return { ok: true };
  });
}

/**
 * POST /password/reset: the link's account gets the new password; its token version moves on, so every
 * session and socket of it ends (and every other reset link stops working).
 */
export async function resetPassword(commands: Commands, token: string, password: string, now: number): Promise<Result<{ events: DomainEvent[] }>> {
  // Hashed before the transaction (scrypt takes ~50 ms), whether or not the token is good.
  const passwordHash = await hashPassword(password);
  return commands.run(async (tx) => {
    const link = await tx.useAccountToken(hashLinkToken(token), 'password_reset', now);
    if (!link) return invalidToken();
    const ver = await tx.resetPassword(link.role, link.accountId, passwordHash);
    if (ver === null) return invalidToken();
    await tx.spendAccountTokens(link.role, link.accountId, 'password_reset', now);
    return { ok: true, events: [{ type: 'account:revoked', role: link.role, id: link.accountId, ver }] };
  });
}

/** A bidder's email choices, every kind named. */
export function settingsOf(kinds: readonly string[], emailVerified: boolean): NotificationSettings {
  return {
    email_verified: emailVerified,
    email: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, kinds.includes(k)])) as NotificationSettings['email'],
  };
}

export async function notificationSettings(reads: Reads, userId: number): Promise<NotificationSettings | null> {
  const row = await reads.emailNotices(userId);
  return row ? settingsOf(row.kinds, row.email !== null) : null;
}

/** PUT /me/notification-settings: the kinds named change, the rest stay. */
export async function updateNotificationSettings(commands: Commands, userId: number, changes: Partial<Record<NotificationKind, boolean>>): Promise<Result<{ settings: NotificationSettings }>> {
  return commands.run(async (tx) => {
    const row = await tx.emailNotices(userId);
    if (!row) return refuse('UNAUTHENTICATED', 'Please sign in');
    const kinds = NOTIFICATION_KINDS.filter((k) => changes[k] ?? row.kinds.includes(k));
    await tx.setEmailNotices(userId, kinds);
    return { ok: true, settings: settingsOf(kinds, row.email !== null) };
  });
}

/** POST /unsubscribe: the signed link's kind of notice is no longer mailed to its bidder. */
export async function unsubscribe(commands: Commands, tokens: UnsubscribeTokens, token: string): Promise<Result<{ kind: NotificationKind; message: string }>> {
  const link = tokens.verify(token);
  if (!link) return refuse('TOKEN_INVALID', 'This unsubscribe link is not valid. You can choose which emails you get on your account page.', 'token');
  const result = await updateNotificationSettings(commands, link.userId, { [link.kind]: false });
  if (!result.ok) return refuse('TOKEN_INVALID', 'This unsubscribe link is not valid. You can choose which emails you get on your account page.', 'token');
  return { ok: true, kind: link.kind, message: `You will no longer get emails about ${NOTICE_KIND_LABELS[link.kind]}.` };
}
