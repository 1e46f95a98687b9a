/** The owner's view of bidders, in one statement with the registration counts. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';

export interface UserAdminRow {
  id: number; name: string; username: string; mobileNumber: string; walletBalance: number;
  auctionsRegistered: number; status: 'active' | 'inactive'; createdAt: number;
}

export function listUsersForOwner(db: Db, q?: string): UserAdminRow[] {
  const term = q?.trim().toLowerCase();
  const like = term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return db.all<UserAdminRow>(sql`
    select u.id, u.name, u.username, u.mobile_number as mobileNumber, u.wallet_balance as walletBalance,
      (select count(*) from registrations r join auctions a on a.id = r.auction_id where r.user_id = u.id and a.deleted_at is null) as auctionsRegistered,
      u.status, u.created_at as createdAt
    from users u
    where ${like} is null
       or lower(u.name) like ${like} escape '\\' or u.username like ${like} escape '\\' or u.mobile_number like ${like} escape '\\'
    order by u.created_at desc, u.id desc`);
}

export function userForOwner(db: Db, id: number): UserAdminRow | null {
  return db.get<UserAdminRow>(sql`
    select u.id, u.name, u.username, u.mobile_number as mobileNumber, u.wallet_balance as walletBalance,
      (select count(*) from registrations r join auctions a on a.id = r.auction_id where r.user_id = u.id and a.deleted_at is null) as auctionsRegistered,
      u.status, u.created_at as createdAt
    from users u where u.id = ${id}`) ?? null;
}
