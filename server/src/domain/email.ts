/**
 * Accounts by email (docs/email.md): addresses and their confirmation, password reset by a mailed
 * link, and which notices a bidder also gets by email. Every mail is written to the outbox in the
 * transaction of the change that causes it, and sent after commit (mail/sender.ts); nothing here waits
 * for a mail server.
 */
import { NOTIFICATION_KINDS, RESET_LINK_MINUTES, UNDO_LINK_DAYS, type NotificationKind, type NotificationSettings } from '@auction/shared';
import type { AdminRow, Reads, Role, UnitOfWork, UserRow } from '../db/index.js';
import { refuse, type Result } from '../errors.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { withinMailCap } from '../mail/caps.js';
import { hashLinkToken, newLinkToken, type UnsubscribeTokens } from '../mail/links.js';
import { emailChangedMail, emailRemovedMail, NOTICE_KIND_LABELS, resetPasswordMail } from '../mail/messages.js';
import { normaliseEmail, sendConfirmation, type LinkBase } from './confirmation.js';
import type { Commands } from './commands.js';
import { accountByUsername, endAccountLinks, type Caller } from './accounts.js';
import type { DomainEvent } from './events.js';

export const RESET_LINK_MS = RESET_LINK_MINUTES * 60_000;
export const UNDO_LINK_MS = UNDO_LINK_DAYS * 24 * 3_600_000;
/**
 * Reset links per account: at most this many in RESET_WINDOW_MS, however the requests named it (any
 * case or spacing of its username, or its address). Past it a request is answered as any other and
 * mails nothing.
 */
export const RESETS_PER_ACCOUNT = 5;
export const RESET_WINDOW_MS = 15 * 60_000;

const invalidToken = () => refuse('TOKEN_INVALID', 'This link has expired or has already been used. Please ask for a new one.', 'token');
const wrongPassword = () => refuse('WRONG_PASSWORD', 'Current password is incorrect', 'password');

/** Whether `password` is the account's current one (read before any transaction: scrypt takes ~50 ms). */
async function isCurrentPassword(commands: Commands, caller: Caller, password: string): Promise<boolean> {
  const hash = await commands.reads.passwordHash(caller.role, caller.id);
  return hash !== null && (await verifyPassword(password, hash));
}

/**
 * PUT /me/email, with the account's current password (a session alone cannot send the account's mail
 * elsewhere). The address already confirmed: nothing to do. Otherwise it waits for its link (the
 * confirmed one, if any, stays until then). Whether another account confirmed it is told only by the
 * link (409 EMAIL_TAKEN), to whoever holds the mailbox: answering here would tell anyone with an
 * account whose addresses are registered.
 */
export async function changeEmail(commands: Commands, links: LinkBase, caller: Caller, input: { email: string; password: string }, now: number): Promise<Result<{ email: string; verified: boolean }>> {
  const email = normaliseEmail(input.email);
  if (!(await isCurrentPassword(commands, caller, input.password))) return wrongPassword();
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

/**
 * DELETE /me/email, with the account's current password: no address any more, confirmed or waiting; its
 * links stop working. The confirmed address is told, with a link that puts it back (POST /email/undo):
 * a session alone must not take from the owner the address their password resets go to.
 */
export async function removeEmail(commands: Commands, links: LinkBase, caller: Caller, input: { password: string }, now: number): Promise<Result<object>> {
  if (!(await isCurrentPassword(commands, caller, input.password))) return wrongPassword();
  return commands.run(async (tx) => {
    const before = await tx.accountEmail(caller.role, caller.id);
    if (!before) return refuse('UNAUTHENTICATED', 'Please sign in');
    await tx.clearEmail(caller.role, caller.id);
    await tx.spendAccountTokens(caller.role, caller.id, 'verify_email', now);
    await tx.spendAccountTokens(caller.role, caller.id, 'password_reset', now);
    if (before.email !== null) await tellLeftAddress(tx, links, { role: caller.role, id: caller.id, account: before, old: before.email, replacement: null }, now);
    return { ok: true };
  });
}

/**
 * POST /email/verify: the link's address becomes the account's confirmed one (refused because another account
 * confirmed it first, the link stays unspent and works once the address is free). The confirmed address it
 * replaces, if any, is told (with a link to undo the change).
 */
export async function confirmEmail(commands: Commands, links: LinkBase, token: string, now: number): Promise<Result<object>> {
  return takenIfRaced(() => confirmLinked(commands, links, token, now));
}

/** Thrown inside a transaction that must roll back (a refusal would commit the token it spent). */
class AddressTaken extends Error {}

/**
 * Two accounts confirming (or restoring) one address at the same moment (PostgreSQL): the second meets
 * the unique index; its transaction rolled back, so its link still works once the address is free again.
 * An AddressTaken thrown by the work rolls back the same way.
 */
async function takenIfRaced<T extends object>(work: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AddressTaken || isUniqueViolation(err)) return refuse('EMAIL_TAKEN', 'Another account confirmed this email address first', 'email');
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

async function confirmLinked(commands: Commands, links: LinkBase, token: string, now: number): Promise<Result<object>> {
  return commands.run(async (tx) => {
    const link = await tx.useAccountToken(hashLinkToken(token), 'verify_email', now);
    if (!link) return invalidToken();
    // Thrown, not returned: a refusal commits, and the link just spent would be lost with it.
    if (await tx.emailTaken(link.role, link.email, link.accountId)) throw new AddressTaken();
    const before = await tx.accountEmail(link.role, link.accountId);
    // The address was changed again (or removed) after this link was sent.
    if (!before || !(await tx.confirmEmail(link.role, link.accountId, link.email))) return invalidToken();
    // A reset link sent to the address before stops working.
    await tx.spendAccountTokens(link.role, link.accountId, 'password_reset', now);
    if (before.email !== null && before.email !== link.email) await tellLeftAddress(tx, links, { role: link.role, id: link.accountId, account: before, old: before.email, replacement: link.email }, now);
    return { ok: true };
  });
}

/**
 * The confirmed address an account just left (for another, or for none) is told, with a link that puts
 * it back (POST /email/undo): the owner whose session someone else used to move or remove the account's
 * address gets the account back.
 */
async function tellLeftAddress(tx: UnitOfWork, links: LinkBase, a: { role: Role; id: number; account: { username: string; name: string }; old: string; replacement: string | null }, now: number) {
  const token = newLinkToken();
  await tx.insertAccountToken({ role: a.role, accountId: a.id, purpose: 'undo_email', tokenHash: hashLinkToken(token), email: a.old, now, expiresAt: now + UNDO_LINK_MS });
  const admin = a.role === 'admin';
  const mail = { to: a.old, name: a.account.name, username: a.account.username, admin, link: `${links.publicUrl}/undo-email?token=${token}${admin ? '&portal=admin' : ''}` };
  await tx.enqueueMail(a.replacement === null ? emailRemovedMail(mail) : emailChangedMail({ ...mail, newEmail: a.replacement }), now);
}

/**
 * POST /email/undo: the address the link was sent to is the account's confirmed one again, the account
 * gets the new password (whoever changed the address knew the old one), and every session and socket of
 * it ends. Links sent to the address that replaced it stop working, and so do the undo links of later
 * changes; an earlier change's undo link still works, so whoever made the later changes cannot use one of
 * theirs to cancel the owner's. Refused because another account has confirmed the address since, it
 * changes nothing, and the link still works once the address is free.
 */
export async function undoEmailChange(commands: Commands, input: { token: string; password: string }, now: number): Promise<Result<{ events: DomainEvent[] }>> {
  // Hashed before the transaction (scrypt takes ~50 ms), whether or not the token is good.
  const passwordHash = await hashPassword(input.password);
  return takenIfRaced(() => commands.run(async (tx) => {
    const link = await tx.useAccountToken(hashLinkToken(input.token), 'undo_email', now);
    if (!link) return invalidToken();
    // Thrown, not returned: a refusal commits, and the token just spent would be lost with it.
    if (await tx.emailTaken(link.role, link.email, link.accountId)) throw new AddressTaken();
    if ((await tx.restoreEmail(link.role, link.accountId, link.email)) === null) return invalidToken();
    const ver = await tx.resetPassword(link.role, link.accountId, passwordHash);
    if (ver === null) return invalidToken();
    await tx.spendAccountTokens(link.role, link.accountId, 'password_reset', now);
    await tx.spendAccountTokens(link.role, link.accountId, 'verify_email', now);
    await tx.spendAccountTokens(link.role, link.accountId, 'undo_email', now, link.id);
    return { ok: true, events: [{ type: 'account:revoked', role: link.role, id: link.accountId, ver }] };
  }));
}

type Account = (UserRow | AdminRow) & { email: string | null };

/**
 * POST /password/forgot, after its answer: when an active account matches (a username, or a confirmed
 * address) and has a confirmed address, a reset link is mailed to it, within the account's budget
 * (RESETS_PER_ACCOUNT) and its address's (mail/caps.ts). The route answers before this runs, so
 * neither the answer nor its timing says whether an account matched, nor whether a budget was spent.
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
    // Counted after the account's row lock: two requests for one account cannot both see room.
    if (await tx.accountTokensSince(input.role, found.id, 'password_reset', now - RESET_WINDOW_MS) >= RESETS_PER_ACCOUNT) return { ok: true };
    if (!(await withinMailCap(tx, 'password_reset', to, now))) return { ok: true };
    await tx.insertAccountToken({ role: input.role, accountId: found.id, purpose: 'password_reset', tokenHash, email: to, now, expiresAt: now + RESET_LINK_MS });
    await tx.enqueueMail(resetPasswordMail({ to, name: found.name, username: found.username, admin: input.role === 'admin', link: `${links.publicUrl}/reset-password?token=${token}${input.role === 'admin' ? '&portal=admin' : ''}` }), now);
    return { ok: true };
  });
}

/**
 * POST /password/reset: the link's account gets the new password; its token version moves on, so every
 * session and socket of it ends (and every other reset link, and a waiting address's, stops working).
 */
export async function resetPassword(commands: Commands, token: string, password: string, now: number): Promise<Result<{ events: DomainEvent[] }>> {
  // Hashed before the transaction (scrypt takes ~50 ms), whether or not the token is good.
  const passwordHash = await hashPassword(password);
  return commands.run(async (tx) => {
    const link = await tx.useAccountToken(hashLinkToken(token), 'password_reset', now);
    if (!link) return invalidToken();
    const ver = await tx.resetPassword(link.role, link.accountId, passwordHash);
    if (ver === null) return invalidToken();
    await endAccountLinks(tx, link.role, link.accountId, now);
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
