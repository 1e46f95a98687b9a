/** The owner's Users calls: non-owners get 403 FORBIDDEN. */
import type { AdminUsers, SetUserStatusBody, UserStatusChanged } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { queryOptions } from '@tanstack/react-query';

export type UserStatus = SetUserStatusBody['status'];

export const fetchUsers = (q: string) => api.get<AdminUsers>('/admin/users', { as: 'admin', query: { q: q || undefined } });

export const setUserStatus = (id: number, status: UserStatus) =>
  api.patch<UserStatusChanged>(`/admin/users/${id}`, { status } satisfies SetUserStatusBody, { as: 'admin' });

/** Every users list (everyone's and each search's) starts with this key. */
export const adminUsersKey = ['admin', 'users'] as const;

/** GET /admin/users?q=, by search text: '' is everyone (the page's numbers and its table when the box is empty). */
export const adminUsersQuery = (q: string) => queryOptions({
  queryKey: [...adminUsersKey, q] as const,
  queryFn: async () => (await fetchUsers(q)).users,
});
