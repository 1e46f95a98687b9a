/** The owner's view of bidders, in one statement with the registration counts. */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/index.js';

export interface UserAdminRow {
  id: number; name: string; username: string; mobileNumber: string; walletBalance: number;
  auctionsRegistered: number; status: 'active' | 'inactive'; createdAt: number;
}

function selectUsers(db: Db, where: SQL): UserAdminRow[] {
  return db.all<UserAdminRow>(sql`
    select u.id, u.name, u.username, u.mobile_number as mobileNumber, u.wallet_balance as walletBalance,
      (select count(*) from registrations r join auctions a on a.id = r.auction_id where r.user_id = u.id and a.deleted_at is null) as auctionsRegistered,
      u.status, u.created_at as createdAt
    from users u
    where ${where}
    order by u.created_at desc, u.id desc`);
}

/** Newest first; `q` matches name, username or mobile number (case-insensitive, contains). */
export function listUsersForOwner(db: Db, q?: string): UserAdminRow[] {
  const term = q?.trim().toLowerCase();
  if (!term) return selectUsers(db, sql`1 = 1`);
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return selectUsers(db, sql`lower(u.name) like ${like} escape '\\' or u.username like ${like} escape '\\' or u.mobile_number like ${like} escape '\\'`);
}

export function userForOwner(db: Db, id: number): UserAdminRow | null {
  return selectUsers(db, sql`u.id = ${id}`)[0] ?? null;
}
