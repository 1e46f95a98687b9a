/**
 * Accounts and sessions: bidders, admins, passwords, email addresses and their mailed tokens: the types.
 */
import type { AccountStatus, AdminRow, Role, UserRow } from '../rows.js';

/**
 * The reads and writes of the commands, inside one transaction. Reads named `lock…` lock what they
 * return until commit on PostgreSQL (`SELECT … FOR UPDATE`). Every command takes its locks in one
 * order, so two commands never wait for each other in a circle: an auction, then its products (by
 * ascending id), then wallets (by ascending id).
 */

/** What a mailed link's token is for (account_tokens.purpose). */
export type TokenPurpose = 'password_reset' | 'verify_email' | 'undo_email';

export interface AccountToken {
  id: number;
  role: Role;
  accountId: number;
  email: string;
}

export interface UserAdminRow {
  id: number; name: string; username: string; mobileNumber: string; walletBalance: number;
  auctionsRegistered: number; status: AccountStatus; createdAt: number;
}

export interface SessionRow {
  username: string;
  status: AccountStatus;
  tokenVersion: number;
  isOwner: boolean;
}

/** What a unit of work reads and writes of accounts and sessions; part of UnitOfWork (store.ts). */
export interface AccountsWork {
  /** Null when the username is taken. */
  insertUser(row: { username: string; name: string; mobileNumber: string; passwordHash: string; now: number }): Promise<UserRow | null>;
  /** Holds other admin sign-ups until commit (the first admin becomes the owner). */
  lockAdminSignup(): Promise<void>;
  hasOwner(): Promise<boolean>;
  /** Null when the username is taken. */
  insertAdmin(row: { username: string; name: string; mobileNumber: string; passwordHash: string; isOwner: boolean; now: number }): Promise<AdminRow | null>;
  /** Sets a new hash if the stored one is still `expected`, bumping the token version; the new version, or null. */
  replacePassword(role: Role, id: number, expected: string, passwordHash: string): Promise<number | null>;
  setUserStatus(id: number, status: AccountStatus): Promise<UserRow | null>;
  updateAdminProfile(id: number, name: string, mobileNumber: string): Promise<AdminRow | null>;
  /** Records an address waiting for confirmation (null: none); false when the account is gone. */
  setPendingEmail(role: Role, id: number, email: string | null): Promise<boolean>;
  /** Forgets the confirmed address too. */
  clearEmail(role: Role, id: number): Promise<void>;
  /** The account's confirmed address, status and names, locked until commit; null when there is no such account. */
  accountEmail(role: Role, id: number): Promise<{ email: string | null; status: AccountStatus; username: string; name: string } | null>;
  /** Whether another account of the kind has confirmed this address. */
  emailTaken(role: Role, email: string, exceptId: number): Promise<boolean>;
  /** Makes the pending address the confirmed one, if it is still `email`; false otherwise. */
  confirmEmail(role: Role, id: number, email: string): Promise<boolean>;
  insertAccountToken(row: { role: Role; accountId: number; purpose: TokenPurpose; tokenHash: string; email: string; now: number; expiresAt: number }): Promise<void>;
  /** Spends the unused, unexpired token with this hash: its row, or null when there is none (used, expired, unknown). */
  useAccountToken(tokenHash: string, purpose: TokenPurpose, now: number): Promise<AccountToken | null>;
  /** Spends every unused token of the account for `purpose` (only those of id `fromId` on, when given). */
  spendAccountTokens(role: Role, accountId: number, purpose: TokenPurpose, now: number, fromId?: number): Promise<void>;
  /** How many tokens for `purpose` the account was sent after `since`, used or not. */
  accountTokensSince(role: Role, accountId: number, purpose: TokenPurpose, since: number): Promise<number>;
  /**
   * Makes `email` the account's confirmed address again (none waiting) and bumps its token version (every
   * session ends): the new version, or null when the account is gone.
   */
  restoreEmail(role: Role, id: number, email: string): Promise<number | null>;
  /** Sets a new password and bumps the token version (every session ends); the new version, or null when the account is gone. */
  resetPassword(role: Role, id: number, passwordHash: string): Promise<number | null>;
  /** The kinds of notice the bidder gets by email, and whether they have a confirmed address; null when there is no such bidder. */
  emailNotices(userId: number): Promise<{ kinds: string[]; email: string | null } | null>;
  /** The kinds of notice the bidder also gets by email. */
  setEmailNotices(userId: number, kinds: readonly string[]): Promise<void>;
}
