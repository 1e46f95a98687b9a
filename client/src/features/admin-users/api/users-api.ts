/** The owner's Users calls: non-owners get 403 FORBIDDEN. */
import type { AdminUser, AdminUsers, SetUserStatusBody, UserStatusChanged } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { createResource } from '../../../lib/resource';

export type UserStatus = SetUserStatusBody['status'];

export const fetchUsers = (q: string) => api.get<AdminUsers>('/admin/users', { as: 'admin', query: { q: q || undefined } });

export const setUserStatus = (id: number, status: UserStatus) =>
  api.patch<UserStatusChanged>(`/admin/users/${id}`, { status } satisfies SetUserStatusBody, { as: 'admin' });

/** GET /admin/users?q=, by search text: '' is everyone (the page's numbers and its table when the box is empty). */
export const adminUsers = createResource<string, AdminUser[]>('admin-users', async (q) => (await fetchUsers(q)).users);
