/** A bidder's notifications (docs/notifications.md): newest first, paged by id; marking read. */
import {
  MarkNotificationsReadBody, NOTIFICATIONS_PAGE_DEFAULT, Notifications, NotificationsQuery, UnreadCount, errorResponses,
} from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { markNoticesRead } from '../../domain/notices.js';
import { unwrap } from '../../errors.js';
import { presentNotification } from '../../presenters/notifications.js';
import { callerOf } from '../input.js';

export function notificationRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['notifications'];
  const security = [{ bearer: [] }];

  app.get('/notifications', {
    onRequest: guard.user,
    schema: {
      tags, security, summary: 'The caller’s notices, newest first (`before`: older than this id; `limit`: 1–100, default 20), and how many are unread',
      querystring: NotificationsQuery,
      response: { 200: Notifications, ...errorResponses(400, 401, 403) },
    },
  }, async (req) => {
    const me = callerOf(req).id;
    const before = req.query.before === undefined ? null : Number(req.query.before);
    const limit = req.query.limit === undefined ? NOTIFICATIONS_PAGE_DEFAULT : Number(req.query.limit);
    const [rows, unread] = await Promise.all([reads.notifications(me, before, limit), reads.unreadNotifications(me)]);
    return { notifications: rows.map(presentNotification), unread };
  });

  app.post('/notifications/read', {
    onRequest: guard.user,
    config: ctx.userLimit('markRead'),
    schema: {
      tags, security, summary: 'Mark the caller’s notices read: those of `ids` (other accounts’ ids change nothing), or all of them',
      body: MarkNotificationsReadBody,
      response: { 200: UnreadCount, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (req) => {
    const cmd = { userId: callerOf(req).id, ids: req.body.ids ?? null };
    return { unread: unwrap(await commands.run((tx) => markNoticesRead(tx, cmd, ctx.now()))).unread };
  });
}
