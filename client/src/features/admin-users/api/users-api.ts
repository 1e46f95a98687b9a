/** The owner's Users calls: non-owners get 403 FORBIDDEN. */
import type { AdminUsers, SetUserStatusBody, UserStatusChanged } from '@auction/shared';
import { api } from '../../../lib/api-client';

export type UserStatus = SetUserStatusBody['status'];

export const fetchUsers = (q: string, signal?: AbortSignal) =>
  api.get<AdminUsers>('/admin/users', { as: 'admin', query: { q: q || undefined }, ...(signal ? { signal } : {}) });

export const setUserStatus = (id: number, status: UserStatus) =>
  api.patch<UserStatusChanged>(`/admin/users/${id}`, { status } satisfies SetUserStatusBody, { as: 'admin' });
