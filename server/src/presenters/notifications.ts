/** Notifications as the API and the live channel show them (docs/notifications.md). */
import type { Notification, NotificationNewData } from '@auction/shared';
import type { NotificationRow } from '../db/index.js';
import type { DomainEvent } from '../domain/events.js';
import { iso } from './format.js';

export const presentNotification = (n: NotificationRow): Notification => ({
  id: n.id, kind: n.kind, title: n.title, body: n.body, link: n.link, created_at: iso(n.createdAt), read: n.readAt !== null,
});

export const liveNotification = (e: Extract<DomainEvent, { type: 'notification:new' }>, server_time: string): NotificationNewData => ({
  notification: presentNotification(e.notification), unread: e.unread, server_time,
});
