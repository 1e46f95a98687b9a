/** The owner's Users calls (DESIGN §3): non-owners get 403 FORBIDDEN. */
import type { AdminUser } from '@auction/shared';
import { api } from '../../../lib/api-client';

export type UserStatus = AdminUser['status'];

export const fetchUsers = (q: string, signal?: AbortSignal) =>
  api.get<{ users: AdminUser[] }>('/admin/users', { as: 'admin', query: { q: q || undefined }, ...(signal ? { signal } : {}) });

export const setUserStatus = (id: number, status: UserStatus) =>
  api.patch<{ message: string; user: AdminUser }>(`/admin/users/${id}`, { status }, { as: 'admin' });
