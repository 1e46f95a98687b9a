/** The owner's Users calls: non-owners get 403 FORBIDDEN. */
import { ADMIN_PAGE_DEFAULT } from '@auction/shared';
import type { AdminUser, AdminUsers, AdminUsersPage, SetUserStatusBody, UserStatusChanged } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { infiniteQueryOptions, queryOptions, type InfiniteData } from '@tanstack/react-query';

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

/** GET /admin/users?q=&limit=&cursor=: one page of the table, newest first. */
export const fetchUsersPage = (q: string, cursor: string | null) =>
  api.get<AdminUsersPage>('/admin/users', { as: 'admin', query: { q: q || undefined, limit: ADMIN_PAGE_DEFAULT, cursor: cursor ?? undefined } });

/** The table's pages by search text, under a key of their own (their data is pages, not a list). */
export const adminUserPagesKey = ['admin', 'user-pages'] as const;

export const adminUserPagesQuery = (q: string) => infiniteQueryOptions({
  queryKey: [...adminUserPagesKey, q] as const,
  queryFn: ({ pageParam }) => fetchUsersPage(q, pageParam),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.next_cursor ?? null,
});

export type UserPages = InfiniteData<AdminUsersPage, string | null>;

/** The pages with one user replaced (by id). */
export function withUserInPages(data: UserPages, user: AdminUser): UserPages {
  return { ...data, pages: data.pages.map((p) => ({ ...p, users: p.users.map((u) => (u.id === user.id ? user : u)) })) };
}
