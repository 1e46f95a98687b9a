import type { MarkNotificationsReadBody, Notifications, UnreadCount } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { queryFamily } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';
import { NOTIFICATIONS_PAGE, type NotificationFeed } from '../model';

/** The caller's notices, newest first: the latest `limit`, or those older than `before` (docs/notifications.md). */
export async function fetchNotifications({ before, limit }: { before?: number; limit: number }): Promise<Notifications> {
  const data = await api.get<Partial<Notifications> | undefined>('/notifications', { as: 'user', query: { before, limit } });
  return {
    notifications: Array.isArray(data?.notifications) ? data.notifications : [],
    unread: typeof data?.unread === 'number' ? data.unread : 0,
  };
}

/** Marks those notices read, or every one without `ids`; answers the caller's unread count. */
export async function postNotificationsRead(ids?: number[]): Promise<number> {
  const body: MarkNotificationsReadBody = ids ? { ids } : {};
  const data = await api.post<Partial<UnreadCount> | undefined>('/notifications/read', body, { as: 'user' });
  if (typeof data?.unread !== 'number') throw new Error('unread missing');
  return data.unread;
}

/** The feed's query options: the newest page and the unread count; `more` while a full page came. */
export const notificationFeed = queryFamily<void, NotificationFeed>(queryRoots.notifications, async () => {
  const page = await fetchNotifications({ limit: NOTIFICATIONS_PAGE });
  return { ...page, more: page.notifications.length >= NOTIFICATIONS_PAGE };
});
