/** Users page numbers and its CSV export (users.csv, formula-safe through lib/csv). */
import { sumRupees, type AdminUser } from '@auction/shared';
import { csvAmount, csvDocument } from '../../lib/csv';

export const USERS_CSV = 'users.csv';
export const USER_COLUMNS = ['id', 'name', 'username', 'mobile_number', 'wallet_balance', 'auctions_registered', 'status', 'created_at'] as const;
export const OWNER_ONLY = 'Only the platform owner can manage users';

export interface UserStats {
  total: number;
  active: number;
  inactive: number;
  walletTotal: number;
}

export function userStats(users: readonly AdminUser[]): UserStats {
  const active = users.filter((u) => u.status === 'active').length;
  return { total: users.length, active, inactive: users.length - active, walletTotal: sumRupees(users.map((u) => u.wallet_balance)) };
}

export function usersCsv(users: readonly AdminUser[]): string {
  return csvDocument(USER_COLUMNS, users.map((u) => [u.id, u.name, u.username, u.mobile_number, csvAmount(u.wallet_balance), u.auctions_registered, u.status, u.created_at]));
}

/** Up to two initials for the avatar. */
export function initials(name: string, fallback: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]![0]}${parts.at(-1)![0]}` : (parts[0] ?? fallback).slice(0, 2);
  return letters.toUpperCase();
}

/** Replaces one user in a list (by id), keeping the order. */
export function withUser(users: readonly AdminUser[], user: AdminUser): AdminUser[] {
  return users.map((u) => (u.id === user.id ? user : u));
}
