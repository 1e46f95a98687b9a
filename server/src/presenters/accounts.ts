import type { AdminPublic, UserPublic } from '@auction/shared';
import type { AdminRow, UserRow } from '../domain/accounts.js';

/** Whitelists: a password hash or token version can never leave through these. */
export function presentUser(u: UserRow): UserPublic {
  return { id: u.id, username: u.username, name: u.name, mobile_number: u.mobileNumber };
}

export function presentAdmin(a: AdminRow): AdminPublic {
  return { id: a.id, username: a.username, name: a.name, mobile_number: a.mobileNumber, is_owner: a.isOwner };
}
