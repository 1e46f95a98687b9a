/**
 * Accounts: registration, login, password changes and the session check behind every token.
 * Users and admins are separate account kinds with separate username spaces (one name may be a user's and an admin's). Password
 * hashing (scrypt, ~50 ms) always happens outside a transaction.
 */
import { LIMITS, type AdminRegisterBody, type RegisterBody } from '@auction/shared';
import type { AdminRow, Reads, Role, UnitOfWork, UserRow } from '../db/index.js';
import { normaliseEmail, sendConfirmation, type LinkBase } from './confirmation.js';
import { refuse, type Result } from '../errors.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import type { TokenClaims } from '../auth/tokens.js';
import type { Commands } from './commands.js';
import { releaseLeadsOf } from './cancelling.js';
import type { DomainEvent } from './events.js';

export type { AdminRow, UserRow };

/** Who is calling, as every guarded route sees it. */
export type Caller =
  | { role: 'user'; id: number; username: string }
  | { role: 'admin'; id: number; username: string; isOwner: boolean };

/**
 * The form a username is stored and looked up in: trimmed, ASCII lower case. Usernames are ASCII
 * (LIMITS.usernamePattern), so a name that is not ASCII as sent (the Kelvin sign U+212A, fullwidth letters) is no
 * account's name: null (registration refuses it, login finds nobody). Neither Unicode case mapping nor
 * NFKC runs first: both turn the Kelvin sign into an ASCII k and would let the look-alike reach the
 * account `k…`; on ASCII text NFKC changes nothing.
 */
function normalise(username: string): string | null {
  const key = username.trim();
  return /^[\x20-\x7E]*$/.test(key) ? key.toLowerCase() : null;
}

/** The Username schema already refuses non-ASCII names; this keeps the rule when called directly. */
const notAscii = () => refuse('VALIDATION', `username must be ${LIMITS.usernameMin}–${LIMITS.usernameMax} characters: letters, digits, _ . or -`, 'username');

/**
 * An address given at sign-up waits for its confirmation link, mailed in the same transaction. It is
 * not checked against other accounts here (that would tell anyone whose address is registered); the
 * link answers EMAIL_TAKEN if another account confirmed it first.
 */
async function confirmGivenEmail(tx: UnitOfWork, links: LinkBase, role: Role, account: { id: number }, email: string | undefined, now: number) {
  if (email === undefined) return;
  await sendConfirmation(tx, links, { role, id: account.id, email: normaliseEmail(email), now });
}

export async function registerUser(commands: Commands, links: LinkBase, input: RegisterBody, now: number): Promise<Result<{ user: UserRow }>> {
  const username = normalise(input.username);
  if (username === null) return notAscii();
  const passwordHash = await hashPassword(input.password);
  return commands.run(async (tx) => {
    const user = await tx.insertUser({ username, name: input.name.trim(), mobileNumber: input.mobile_number, passwordHash, now });
    if (!user) return refuse('USERNAME_TAKEN', 'Username already exists', 'username');
    await confirmGivenEmail(tx, links, 'user', user, input.email, now);
    return { ok: true, user };
  });
}

export async function registerAdmin(commands: Commands, links: LinkBase, input: AdminRegisterBody, now: number, signup: 'open' | 'closed'): Promise<Result<{ admin: AdminRow }>> {
  const username = normalise(input.username);
  if (username === null) return notAscii();
  const passwordHash = await hashPassword(input.password);
  return commands.run(async (tx) => {
    // "Is there an owner yet?" and the insert cannot interleave with another sign-up's.
    await tx.lockAdminSignup();
    const hasOwner = await tx.hasOwner();
    if (hasOwner && signup === 'closed') return refuse('SIGNUP_CLOSED', 'Admin registration is closed on this platform');
    const admin = await tx.insertAdmin({
      username, name: input.name.trim(), mobileNumber: input.mobile_number, passwordHash, isOwner: !hasOwner, now,
    });
    if (!admin) return refuse('USERNAME_TAKEN', 'Username already exists', 'username');
    await confirmGivenEmail(tx, links, 'admin', admin, input.email, now);
    return { ok: true, admin };
  });
}

type Account = { id: number; passwordHash: string; status: 'active' | 'inactive'; tokenVersion: number };

/** Same answer and same cost whether the username is unknown or the password wrong. */
async function checkCredentials<A extends Account>(found: A | null, password: string): Promise<Result<{ account: A }>> {
  const valid = await verifyPassword(password, found?.passwordHash ?? (await dummyHash()));
  if (!found || !valid) return refuse('INVALID_CREDENTIALS', 'Invalid username or password');
  if (found.status !== 'active') return refuse('ACCOUNT_INACTIVE', 'This account has been deactivated');
  return { ok: true, account: found };
}

/** The account with this username (as typed: any case, surrounding spaces), if any. */
export async function accountByUsername(reads: Reads, role: Role, username: string): Promise<UserRow | AdminRow | null> {
  const key = normalise(username);
  if (key === null) return null;
  return role === 'user' ? reads.userByUsername(key) : reads.adminByUsername(key);
}

export async function loginUser(reads: Reads, username: string, password: string) {
  const key = normalise(username);
  return checkCredentials(key === null ? null : await reads.userByUsername(key), password);
}

export async function loginAdmin(reads: Reads, username: string, password: string) {
  const key = normalise(username);
  return checkCredentials(key === null ? null : await reads.adminByUsername(key), password);
}

/**
 * Existing clients name the caller in the body (`username`, `user_id`); those names must be the
 * caller's own id or username (routes answer 403 FORBIDDEN otherwise).
 */
export function namesCaller(caller: Caller, ...names: (string | number | undefined)[]): boolean {
  return names.every((n) => n === undefined || String(n) === String(caller.id) || normalise(String(n)) === caller.username);
}

/**
 * In `tx`, once the account's password changed (a change, a reset) or the account was deactivated:
 * every reset link sent before stops working, and so does the link of an address waiting for
 * confirmation, which is dropped (docs/email.md). Whoever asked for them may no longer be the owner,
 * or the owner may have just taken the account back. The confirmed address, and a link to undo an
 * address change (its owner's way back), stay.
 */
export async function endAccountLinks(tx: UnitOfWork, role: Role, id: number, now: number): Promise<void> {
  await tx.spendAccountTokens(role, id, 'password_reset', now);
  await tx.spendAccountTokens(role, id, 'verify_email', now);
  await tx.setPendingEmail(role, id, null);
}

/**
 * Checks the current password, stores the new one and bumps the token version, which revokes every
 * token issued before (and every mailed link but an undo's). Returns the new version for the fresh token.
 */
export async function changePassword(commands: Commands, caller: Caller, password: string, newPassword: string, now: number): Promise<Result<{ ver: number; events?: DomainEvent[] }>> {
  const wrong = () => refuse('WRONG_PASSWORD', 'Current password is incorrect', 'password');
  const hash = await commands.reads.passwordHash(caller.role, caller.id);
  if (hash === null || !(await verifyPassword(password, hash))) return wrong();
  const passwordHash = await hashPassword(newPassword);
  return commands.run(async (tx) => {
    // Another change landed between our read and this write: make the caller try again with the new state.
    const ver = await tx.replacePassword(caller.role, caller.id, hash, passwordHash);
    if (ver === null) return wrong();
    await endAccountLinks(tx, caller.role, caller.id, now);
    // Live sockets opened with an older token close (the caller's new token opens a new one).
    return { ok: true, ver, events: [{ type: 'account:revoked', role: caller.role, id: caller.id, ver }] };
  });
}

/** The caller behind verified token claims, or null when the account is gone, inactive or the token revoked. */
export async function resolveSession(reads: Pick<Reads, 'session'>, claims: TokenClaims): Promise<Caller | null> {
  const row = await reads.session(claims.role, claims.id);
  if (!row || row.status !== 'active' || row.tokenVersion !== claims.ver) return null;
  return claims.role === 'user'
    ? { role: 'user', id: claims.id, username: row.username }
    : { role: 'admin', id: claims.id, username: row.username, isOwner: row.isOwner };
}

/**
 * Activates or deactivates a bidder. Deactivation bumps the token version, so the user's tokens stop
 * working at once (and their sockets close), and ends the links mailed before (endAccountLinks);
 * reactivation brings back neither.
 */
export async function setUserStatus(tx: UnitOfWork, cmd: { userId: number; status: 'active' | 'inactive' }, now: number): Promise<Result<{ user: UserRow; events: DomainEvent[] }>> {
  if (cmd.status === 'active') {
    const user = await tx.setUserStatus(cmd.userId, 'active');
    return user ? { ok: true, user, events: [] } : refuse('NOT_FOUND', 'User not found');
  }
  // A deactivated bidder never wins: their leading holds are released first (refund, reinstatement).
  const release = await releaseLeadsOf(tx, cmd.userId, now);
  const user = await tx.setUserStatus(cmd.userId, 'inactive');
  if (!user) return refuse('NOT_FOUND', 'User not found');
  await endAccountLinks(tx, 'user', cmd.userId, now);
  const applied = await tx.apply(release.changes, now);
  return { ok: true, user, events: [...release.events(applied), { type: 'account:deactivated', userId: cmd.userId }] };
}

/** An admin updates their own name and mobile number. */
export async function updateAdminProfile(tx: UnitOfWork, cmd: { adminId: number; name: string; mobileNumber: string }): Promise<Result<{ admin: AdminRow }>> {
  const admin = await tx.updateAdminProfile(cmd.adminId, cmd.name.trim(), cmd.mobileNumber);
  if (!admin) return refuse('UNAUTHENTICATED', 'Please sign in');
  return { ok: true, admin };
}
