/**
 * Accounts and sessions: bidders, admins, passwords, email addresses and their mailed tokens.
 * Its reads, one slice of Reads (reads.ts).
 */
import { WHOLE_LIST_MAX } from '@auction/shared';
import { type AdminRow, asAdmin, columns, isStorableId, type Role, type UserRow } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { likePattern, type Param, type SqlRunner } from '../sql.js';
import type { SessionRow, UserAdminRow } from './types.js';

/** `limit`: the first so many only. */
function usersForOwner(sql: SqlRunner, where: string, params: Param[], limit?: number): Promise<UserAdminRow[]> {
  return sql.all<UserAdminRow>(
    `select u.id, u.name, u.username, u.mobile_number as "mobileNumber", u.wallet_balance as "walletBalance",
      (select count(*) from registrations r join auctions a on a.id = r.auction_id where r.user_id = u.id and a.deleted_at is null) as "auctionsRegistered",
      u.status, u.created_at as "createdAt"
    from users u
    where ${where}
    order by u.created_at desc, u.id desc${limit === undefined ? '' : ' limit ?'}`,
    limit === undefined ? params : [...params, limit],
  );
}

export class AccountsReads extends SqlSlice {
  async user(id: number): Promise<UserRow | null> {
    if (!isStorableId(id)) return null;
    return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.id = ?`, [id])) ?? null;
  }

  async userByUsername(username: string): Promise<UserRow | null> {
    return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.username = ?`, [username])) ?? null;
  }

  async adminByUsername(username: string): Promise<AdminRow | null> {
    const row = await this.sql.get<AdminRow>(`select ${columns.admin('a')} from admins a where a.username = ?`, [username]);
    return row ? asAdmin(row) : null;
  }

  async passwordHash(role: Role, id: number): Promise<string | null> {
    const table = role === 'user' ? 'users' : 'admins';
    return (await this.sql.get<{ hash: string }>(`select password_hash as hash from ${table} where id = ?`, [id]))?.hash ?? null;
  }

  /** What a token's session check needs: one indexed lookup on every authenticated request. */
  async session(role: Role, id: number): Promise<SessionRow | null> {
    const row = role === 'user'
      ? await this.sql.get<SessionRow>('select username, status, token_version as "tokenVersion" from users where id = ?', [id])
      : await this.sql.get<SessionRow>('select username, status, token_version as "tokenVersion", is_owner as "isOwner" from admins where id = ?', [id]);
    return row ? { ...row, isOwner: Boolean(row.isOwner) } : null;
  }

  /** The account with this confirmed address (lower-cased), if any. */
  async accountByEmail(role: Role, email: string): Promise<UserRow | AdminRow | null> {
    if (role === 'user') return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.email = ?`, [email])) ?? null;
    const row = await this.sql.get<AdminRow>(`select ${columns.admin('a')} from admins a where a.email = ?`, [email]);
    return row ? asAdmin(row) : null;
  }

  /** An account as its owner sees it (GET /me). */
  async account(role: Role, id: number): Promise<UserRow | AdminRow | null> {
    if (!isStorableId(id)) return null;
    if (role === 'user') return (await this.sql.get<UserRow>(`select ${columns.user('u')} from users u where u.id = ?`, [id])) ?? null;
    const row = await this.sql.get<AdminRow>(`select ${columns.admin('a')} from admins a where a.id = ?`, [id]);
    return row ? asAdmin(row) : null;
  }

  /** The kinds of notice the bidder also gets by email, and their confirmed address. */
  async emailNotices(userId: number): Promise<{ kinds: string[]; email: string | null } | null> {
    if (!isStorableId(userId)) return null;
    const row = await this.sql.get<{ kinds: string; email: string | null }>('select email_notices as kinds, email from users where id = ?', [userId]);
    return row ? { kinds: row.kinds.split(',').filter(Boolean), email: row.email } : null;
  }

  /** Newest first, the newest WHOLE_LIST_MAX at most; `q` matches name, username or mobile number (case-insensitive, contains). */
  async listUsersForOwner(q?: string): Promise<UserAdminRow[]> {
    const term = q?.trim().toLowerCase();
    if (!term) return usersForOwner(this.sql, '1 = 1', [], WHOLE_LIST_MAX);
    const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return usersForOwner(this.sql, `lower(u.name) like ? escape '\\' or u.username like ? escape '\\' or u.mobile_number like ? escape '\\'`, [like, like, like], WHOLE_LIST_MAX);
  }

  /**
   * A page of `listUsersForOwner`'s list (newest first: joined, then id, both descending), keyset
   * after `after`.
   */
  async listUsersPageForOwner(q: string | undefined, after: { key: number; id: number } | null, limit: number): Promise<UserAdminRow[]> {
    const term = q?.trim().toLowerCase();
    const where: string[] = [];
    const params: Param[] = [];
    if (term) {
      const like = likePattern(term);
      where.push(`(lower(u.name) like ? escape '\\' or u.username like ? escape '\\' or u.mobile_number like ? escape '\\')`);
      params.push(like, like, like);
    }
    if (after !== null) {
      where.push('(u.created_at < ? or (u.created_at = ? and u.id < ?))');
      params.push(after.key, after.key, after.id);
    }
    return usersForOwner(this.sql, where.length > 0 ? where.join(' and ') : '1 = 1', params, limit);
  }

  async userForOwner(id: number): Promise<UserAdminRow | null> {
    if (!isStorableId(id)) return null;
    return (await usersForOwner(this.sql, 'u.id = ?', [id]))[0] ?? null;
  }
}
