/**
 * Accounts: registration, login, password changes and the session check behind every token.
 * Users and admins are separate account kinds with separate username spaces (DESIGN §3).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { AdminRegisterBody, RegisterBody } from '@auction/shared';
import type { Db } from '../db/index.js';
import { admins, users } from '../db/schema.js';
import { refuse, type Result } from '../errors.js';
import { dummyHash, hashPassword, verifyPassword } from '../auth/passwords.js';
import type { Role, TokenClaims } from '../auth/tokens.js';

export type UserRow = typeof users.$inferSelect;
export type AdminRow = typeof admins.$inferSelect;

/** Who is calling, as every guarded route sees it. */
export type Caller =
  | { role: 'user'; id: number; username: string }
  | { role: 'admin'; id: number; username: string; isOwner: boolean };

const normalise = (username: string) => username.trim().toLowerCase();
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

export async function registerUser(props: { db: Db; input: RegisterBody; now: number }): Promise<Result<{ user: UserRow }>> {
  const { db, input, now } = props;
  const passwordHash = await hashPassword(input.password);
  try {
    const user = db.insert(users).values({
      username: normalise(input.username),
      name: input.name.trim(),
      mobileNumber: input.mobile_number,
      passwordHash,
      createdAt: now,
    }).returning().get();
    return { ok: true, user };
  } catch (err) {
    if (isUniqueViolation(err)) return refuse('USERNAME_TAKEN', 'Username already exists', 'username');
    throw err;
  }
}

export async function registerAdmin(props: { db: Db; input: AdminRegisterBody; now: number; signup: 'open' | 'closed' }): Promise<Result<{ admin: AdminRow }>> {
  const { db, input, now, signup } = props;
  const passwordHash = await hashPassword(input.password);
  try {
    // Synchronous transaction: the "is there an owner yet?" read and the insert cannot interleave.
    return db.transaction((tx): Result<{ admin: AdminRow }> => {
      const hasOwner = tx.select({ id: admins.id }).from(admins).where(eq(admins.isOwner, true)).get() !== undefined;
      if (hasOwner && signup === 'closed') return refuse('SIGNUP_CLOSED', 'Admin registration is closed on this platform');
      const admin = tx.insert(admins).values({
        username: normalise(input.username),
        name: input.name.trim(),
        mobileNumber: input.mobile_number,
        passwordHash,
        isOwner: !hasOwner,
        createdAt: now,
      }).returning().get();
      return { ok: true, admin };
    }, { behavior: 'immediate' });
  } catch (err) {
    if (isUniqueViolation(err)) return refuse('USERNAME_TAKEN', 'Username already exists', 'username');
    throw err;
  }
}

type Account = { id: number; passwordHash: string; status: 'active' | 'inactive'; tokenVersion: number };

/** Same answer and same cost whether the username is unknown or the password wrong. */
async function checkCredentials<A extends Account>(found: A | undefined, password: string): Promise<Result<{ account: A }>> {
  const valid = await verifyPassword(password, found?.passwordHash ?? (await dummyHash()));
  if (!found || !valid) return refuse('INVALID_CREDENTIALS', 'Invalid username or password');
  if (found.status !== 'active') return refuse('ACCOUNT_INACTIVE', 'This account has been deactivated');
  return { ok: true, account: found };
}

export async function loginUser(props: { db: Db; username: string; password: string }) {
  const found = props.db.select().from(users).where(eq(users.username, normalise(props.username))).get();
  return checkCredentials(found, props.password);
}

export async function loginAdmin(props: { db: Db; username: string; password: string }) {
  const found = props.db.select().from(admins).where(eq(admins.username, normalise(props.username))).get();
  return checkCredentials(found, props.password);
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
export async function changePassword(props: { db: Db; caller: Caller; password: string; newPassword: string }): Promise<Result<{ ver: number }>> {
  const { db, caller } = props;
  const table = caller.role === 'user' ? users : admins;
  const row = db.select({ hash: table.passwordHash }).from(table).where(eq(table.id, caller.id)).get();
  if (!row || !(await verifyPassword(props.password, row.hash))) {
    return refuse('WRONG_PASSWORD', 'Current password is incorrect', 'password');
  }
  const passwordHash = await hashPassword(props.newPassword);
  const updated = db.update(table)
    .set({ passwordHash, tokenVersion: sql`${table.tokenVersion} + 1` })
    .where(and(eq(table.id, caller.id), eq(table.passwordHash, row.hash)))
    .returning({ ver: table.tokenVersion })
    .get();
  // Another change landed between our read and write: make the caller try again with the new state.
  if (!updated) return refuse('WRONG_PASSWORD', 'Current password is incorrect', 'password');
  return { ok: true, ver: updated.ver };
}

type SessionRow = { username: string; status: string; tokenVersion: number; isOwner: boolean };
const sessionQueries = new WeakMap<Db, Record<Role, { get(args: { id: number }): SessionRow | undefined }>>();

function sessionQuery(db: Db, role: Role) {
  let q = sessionQueries.get(db);
  if (!q) {
    const id = sql.placeholder('id');
    q = {
      user: db.select({ username: users.username, status: users.status, tokenVersion: users.tokenVersion, isOwner: sql<boolean>`0` })
        .from(users).where(eq(users.id, id)).prepare(),
      admin: db.select({ username: admins.username, status: admins.status, tokenVersion: admins.tokenVersion, isOwner: admins.isOwner })
        .from(admins).where(eq(admins.id, id)).prepare(),
    };
    sessionQueries.set(db, q);
  }
  return q[role];
}

/** The caller behind verified token claims, or null when the account is gone, inactive or the token revoked. */
export function resolveSession(props: { db: Db; claims: TokenClaims }): Caller | null {
  const { db, claims } = props;
  const row = sessionQuery(db, claims.role).get({ id: claims.id });
  if (!row || row.status !== 'active' || row.tokenVersion !== claims.ver) return null;
  return claims.role === 'user'
    ? { role: 'user', id: claims.id, username: row.username }
    : { role: 'admin', id: claims.id, username: row.username, isOwner: Boolean(row.isOwner) };
}

/**
 * Activates or deactivates a bidder. Deactivation bumps the token version, so the user's tokens stop
 * working at once; reactivation does not bring them back. Returns null for an unknown user.
 */
export function setUserStatus(props: { db: Db; userId: number; status: 'active' | 'inactive' }): UserRow | null {
  const { db, userId, status } = props;
  const bump = status === 'inactive' ? sql`${users.tokenVersion} + 1` : users.tokenVersion;
  return db.update(users).set({ status, tokenVersion: bump }).where(eq(users.id, userId)).returning().get() ?? null;
}

/** An admin updates their own name and mobile number. */
export function updateAdminProfile(props: { db: Db; adminId: number; name: string; mobileNumber: string }): AdminRow | null {
  const { db, adminId } = props;
  return db.update(admins).set({ name: props.name.trim(), mobileNumber: props.mobileNumber })
    .where(eq(admins.id, adminId)).returning().get() ?? null;
}
