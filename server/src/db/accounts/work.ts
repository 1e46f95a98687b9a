/**
 * Accounts and sessions: bidders, admins, passwords, email addresses and their mailed tokens.
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { type AccountStatus, type AdminRow, asAdmin, columns, isStorableId, type Role, type UserRow } from '../rows.js';
import { SqlSlice } from '../slice.js';
import type { AccountsWork, AccountToken, TokenPurpose } from './types.js';

const ACCOUNT_TABLE: Record<Role, string> = { user: 'users', admin: 'admins' };

export class AccountsSql extends SqlSlice implements AccountsWork {
  async insertUser(row: { username: string; name: string; mobileNumber: string; passwordHash: string; now: number }) {
    return (await this.sql.get<UserRow>(
      `insert into users (username, name, mobile_number, password_hash, created_at) values (?, ?, ?, ?, ?)
       on conflict do nothing returning ${columns.user('users')}`,
      [row.username, row.name, row.mobileNumber, row.passwordHash, row.now],
    )) ?? null;
  }

  async lockAdminSignup(): Promise<void> {
    if (this.dialect.adminSignupLock) await this.sql.get(this.dialect.adminSignupLock);
  }

  async hasOwner(): Promise<boolean> {
    return (await this.sql.get('select 1 as one from admins where is_owner = ?', [true])) !== undefined;
  }

  async insertAdmin(row: { username: string; name: string; mobileNumber: string; passwordHash: string; isOwner: boolean; now: number }) {
    const admin = await this.sql.get<AdminRow>(
      `insert into admins (username, name, mobile_number, password_hash, is_owner, created_at) values (?, ?, ?, ?, ?, ?)
       on conflict do nothing returning ${columns.admin('admins')}`,
      [row.username, row.name, row.mobileNumber, row.passwordHash, row.isOwner, row.now],
    );
    return admin ? asAdmin(admin) : null;
  }

  async replacePassword(role: Role, id: number, expected: string, passwordHash: string): Promise<number | null> {
    const row = await this.sql.get<{ ver: number }>(
      `update ${ACCOUNT_TABLE[role]} set password_hash = ?, token_version = token_version + 1 where id = ? and password_hash = ? returning token_version as ver`,
      [passwordHash, id, expected],
    );
    return row?.ver ?? null;
  }

  async setUserStatus(id: number, status: AccountStatus): Promise<UserRow | null> {
    if (!isStorableId(id)) return null;
    // Deactivation bumps the token version (tokens stop working at once); reactivation brings none back.
    const bump = status === 'inactive' ? 1 : 0;
    return (await this.sql.get<UserRow>(
      `update users set status = ?, token_version = token_version + ? where id = ? returning ${columns.user('users')}`,
      [status, bump, id],
    )) ?? null;
  }

  async updateAdminProfile(id: number, name: string, mobileNumber: string): Promise<AdminRow | null> {
    const admin = await this.sql.get<AdminRow>(`update admins set name = ?, mobile_number = ? where id = ? returning ${columns.admin('admins')}`, [name, mobileNumber, id]);
    return admin ? asAdmin(admin) : null;
  }

  async setPendingEmail(role: Role, id: number, email: string | null): Promise<boolean> {
    return (await this.sql.run(`update ${ACCOUNT_TABLE[role]} set pending_email = ? where id = ?`, [email, id])) > 0;
  }

  async clearEmail(role: Role, id: number): Promise<void> {
    await this.sql.run(`update ${ACCOUNT_TABLE[role]} set email = null, pending_email = null where id = ?`, [id]);
  }

  async accountEmail(role: Role, id: number): Promise<{ email: string | null; status: AccountStatus; username: string; name: string } | null> {
    return (await this.sql.get<{ email: string | null; status: AccountStatus; username: string; name: string }>(
      `select email, status, username, name from ${ACCOUNT_TABLE[role]} where id = ?${this.dialect.forUpdate}`, [id],
    )) ?? null;
  }

  async emailTaken(role: Role, email: string, exceptId: number): Promise<boolean> {
    return (await this.sql.get(`select 1 as one from ${ACCOUNT_TABLE[role]} where email = ? and id <> ?`, [email, exceptId])) !== undefined;
  }

  async confirmEmail(role: Role, id: number, email: string): Promise<boolean> {
    return (await this.sql.run(`update ${ACCOUNT_TABLE[role]} set email = pending_email, pending_email = null where id = ? and pending_email = ?`, [id, email])) > 0;
  }

  async insertAccountToken(row: { role: Role; accountId: number; purpose: TokenPurpose; tokenHash: string; email: string; now: number; expiresAt: number }): Promise<void> {
    await this.sql.run(
      'insert into account_tokens (role, account_id, purpose, token_hash, email, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?)',
      [row.role, row.accountId, row.purpose, row.tokenHash, row.email, row.now, row.expiresAt],
    );
  }

  async useAccountToken(tokenHash: string, purpose: TokenPurpose, now: number): Promise<AccountToken | null> {
    return (await this.sql.get<AccountToken>(
      `update account_tokens set used_at = ? where token_hash = ? and purpose = ? and used_at is null and expires_at > ?
       returning id, role, account_id as "accountId", email`,
      [now, tokenHash, purpose, now],
    )) ?? null;
  }

  async spendAccountTokens(role: Role, accountId: number, purpose: TokenPurpose, now: number, fromId = 0): Promise<void> {
    await this.sql.run('update account_tokens set used_at = ? where role = ? and account_id = ? and purpose = ? and used_at is null and id >= ?', [now, role, accountId, purpose, fromId]);
  }

  async accountTokensSince(role: Role, accountId: number, purpose: TokenPurpose, since: number): Promise<number> {
    const row = await this.sql.get<{ n: number }>('select count(*) as n from account_tokens where role = ? and account_id = ? and purpose = ? and created_at > ?', [role, accountId, purpose, since]);
    return Number(row?.n ?? 0);
  }

  async restoreEmail(role: Role, id: number, email: string): Promise<number | null> {
    const row = await this.sql.get<{ ver: number }>(
      `update ${ACCOUNT_TABLE[role]} set email = ?, pending_email = null, token_version = token_version + 1 where id = ? returning token_version as ver`,
      [email, id],
    );
    return row?.ver ?? null;
  }

  async resetPassword(role: Role, id: number, passwordHash: string): Promise<number | null> {
    const row = await this.sql.get<{ ver: number }>(
      `update ${ACCOUNT_TABLE[role]} set password_hash = ?, token_version = token_version + 1 where id = ? returning token_version as ver`,
      [passwordHash, id],
    );
    return row?.ver ?? null;
  }

  async emailNotices(userId: number): Promise<{ kinds: string[]; email: string | null } | null> {
    if (!isStorableId(userId)) return null;
    const row = await this.sql.get<{ kinds: string; email: string | null }>(`select email_notices as kinds, email from users where id = ?${this.dialect.forUpdate}`, [userId]);
    return row ? { kinds: row.kinds.split(',').filter(Boolean), email: row.email } : null;
  }

  async setEmailNotices(userId: number, kinds: readonly string[]): Promise<void> {
    await this.sql.run('update users set email_notices = ? where id = ?', [kinds.join(','), userId]);
  }
}
