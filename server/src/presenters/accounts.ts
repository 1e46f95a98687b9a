import { toRupees, type AdminPublic, type UserPublic } from '@auction/shared';
import type { AdminRow, UserAdminRow, UserRow } from '../db/index.js';
import { iso } from './format.js';

/** Whitelists: a password hash or token version can never leave through these. */
export function presentUser(u: UserRow): UserPublic {
  return { id: u.id, username: u.username, name: u.name, mobile_number: u.mobileNumber };
}

export function presentAdmin(a: AdminRow): AdminPublic {
  return { id: a.id, username: a.username, name: a.name, mobile_number: a.mobileNumber, is_owner: a.isOwner };
}

/** A bidder as the platform owner's Users page shows them (real data; the owner only: GET /api/admin/users). */
export function presentUserForOwner(u: UserAdminRow) {
  return {
    id: u.id, name: u.name, username: u.username, mobile_number: u.mobileNumber, wallet_balance: toRupees(u.walletBalance),
    auctions_registered: u.auctionsRegistered, status: u.status, created_at: iso(u.createdAt),
  };
}
