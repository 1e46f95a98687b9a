/**
 * Accounts: registration, login, password changes and the session check behind every token.
 * Users and admins are separate account kinds with separate username spaces (DESIGN §3). Password
 * hashing (scrypt, ~50 ms) always happens outside a transaction.
 */
import type { AdminRegisterBody, RegisterBody } from '@auction/shared';
import type { AdminRow, Reads, UnitOfWork, UserRow } from '../db/index.js';
import { refuse, type Result } from '../errors.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import type { TokenClaims } from '../auth/tokens.js';
import type { Commands } from './commands.js';
import type { DomainEvent } from './events.js';

export type { AdminRow, UserRow };

/** Who is calling, as every guarded route sees it. */
export type Caller =
  | { role: 'user'; id: number; username: string }
  | { role: 'admin'; id: number; username: string; isOwner: boolean };

const normalise = (username: string) => username.trim().toLowerCase();

export async function registerUser(commands: Commands, input: RegisterBody, now: number): Promise<Result<{ user: UserRow }>> {
  const passwordHash = await hashPassword(input.password);
  return commands.run(async (tx) => {
    const user = await tx.insertUser({ username: normalise(input.username), name: input.name.trim(), mobileNumber: input.mobile_number, passwordHash, now });
    if (!user) return refuse('USERNAME_TAKEN', 'Username already exists', 'username');
    return { ok: true, user };
  });
}

export async function registerAdmin(commands: Commands, input: AdminRegisterBody, now: number, signup: 'open' | 'closed'): Promise<Result<{ admin: AdminRow }>> {
  const passwordHash = await hashPassword(input.password);
  return commands.run(async (tx) => {
    // "Is there an owner yet?" and the insert cannot interleave with another sign-up's.
    await tx.lockAdminSignup();
    const hasOwner = await tx.hasOwner();
    if (hasOwner && signup === 'closed') return refuse('SIGNUP_CLOSED', 'Admin registration is closed on this platform');
    const admin = await tx.insertAdmin({
      username: normalise(input.username), name: input.name.trim(), mobileNumber: input.mobile_number, passwordHash, isOwner: !hasOwner, now,
    });
    if (!admin) return refuse('USERNAME_TAKEN', 'Username already exists', 'username');
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

export async function loginUser(reads: Reads, username: string, password: string) {
  return checkCredentials(await reads.userByUsername(normalise(username)), password);
}

export async function loginAdmin(reads: Reads, username: string, password: string) {
  return checkCredentials(await reads.adminByUsername(normalise(username)), password);
}

/**
 * Existing clients name the caller in the body (`username`, `user_id`); those names must be the
 * caller's own id or username (DESIGN §3).
 */
export function namesCaller(caller: Caller, ...names: (string | number | undefined)[]): boolean {
  return names.every((n) => n === undefined || String(n) === String(caller.id) || normalise(String(n)) === caller.username);
}

/**
 * Checks the current password, stores the new one and bumps the token version, which revokes every
 * token issued before. Returns the new version for the fresh token.
 */
export async function changePassword(commands: Commands, caller: Caller, password: string, newPassword: string): Promise<Result<{ ver: number }>> {
  const wrong = () => refuse('WRONG_PASSWORD', 'Current password is incorrect', 'password');
  const hash = await commands.reads.passwordHash(caller.role, caller.id);
  if (hash === null || !(await verifyPassword(password, hash))) return wrong();
  const passwordHash = await hashPassword(newPassword);
  return commands.run(async (tx) => {
    // Another change landed between our read and this write: make the caller try again with the new state.
    const ver = await tx.replacePassword(caller.role, caller.id, hash, passwordHash);
    return ver === null ? wrong() : { ok: true, ver };
  });
}

/** The caller behind verified token claims, or null when the account is gone, inactive or the token revoked. */
export async function resolveSession(reads: Reads, claims: TokenClaims): Promise<Caller | null> {
  const row = await reads.session(claims.role, claims.id);
  if (!row || row.status !== 'active' || row.tokenVersion !== claims.ver) return null;
  return claims.role === 'user'
    ? { role: 'user', id: claims.id, username: row.username }
    : { role: 'admin', id: claims.id, username: row.username, isOwner: row.isOwner };
}

/**
 * Activates or deactivates a bidder. Deactivation bumps the token version, so the user's tokens stop
 * working at once (and their sockets close); reactivation does not bring them back.
 */
export async function setUserStatus(tx: UnitOfWork, cmd: { userId: number; status: 'active' | 'inactive' }): Promise<Result<{ user: UserRow; events: DomainEvent[] }>> {
  const user = await tx.setUserStatus(cmd.userId, cmd.status);
  if (!user) return refuse('NOT_FOUND', 'User not found');
  return { ok: true, user, events: cmd.status === 'inactive' ? [{ type: 'account:deactivated', userId: cmd.userId }] : [] };
}

/** An admin updates their own name and mobile number. */
export async function updateAdminProfile(tx: UnitOfWork, cmd: { adminId: number; name: string; mobileNumber: string }): Promise<Result<{ admin: AdminRow }>> {
  const admin = await tx.updateAdminProfile(cmd.adminId, cmd.name.trim(), cmd.mobileNumber);
  if (!admin) return refuse('UNAUTHENTICATED', 'Please sign in');
  return { ok: true, admin };
}
