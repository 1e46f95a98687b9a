/**
 * The bidder's notices (docs/notifications.md) as one query (options in api/): the newest page and
 * the unread count from `GET /api/notifications`, older pages appended by "Load more". A live
 * `notification:new` puts the notice on top and sets the count it carries; after a reconnect (nothing is
 * replayed: docs/live-protocol.md#notifications) the feed on screen is read again.
 */
import { toast } from '../../../components/ui/toast/toast-store';
import { isSessionEnded } from '../../../lib/api-client';
import { onLive, onReconnect, type LiveData } from '../../../lib/live';
import { invalidateSoon } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';
import { fetchNotifications, notificationFeed, postNotificationsRead } from '../api/notifications-api';
import { NOTIFICATIONS_PAGE, withNew, withOlderPage, withRead } from '../model';

export { notificationFeed };

export const MARK_READ_FAILED = 'Could not mark notifications as read';

// Counts the live counts received: an answer to a mark-read sent before one of them may be older.
let liveCounts = 0;

/** Reads the page older than the last notice shown and appends it. */
export async function loadMoreNotifications(): Promise<void> {
  const last = notificationFeed.get().data?.notifications.at(-1);
  if (!last) return;
  const page = await fetchNotifications({ before: last.id, limit: NOTIFICATIONS_PAGE });
  notificationFeed.patch(undefined, (feed) => withOlderPage(feed, page.notifications, last.id));
}

/** Marks those notices read (every one without `ids`): shown at once, the count then from the answer. */
export async function markNotificationsRead(ids?: number[]): Promise<void> {
  notificationFeed.patch(undefined, (feed) => withRead(feed, ids));
  const before = liveCounts;
  try {
    const unread = await postNotificationsRead(ids);
    if (before === liveCounts) notificationFeed.patch(undefined, (feed) => (feed.unread === unread ? feed : { ...feed, unread }));
    else invalidateSoon(queryRoots.notifications);
  } catch (err) {
    // A 401 has ended the session already; any other failure shows what the server holds again.
    if (!isSessionEnded(err)) toast.error(MARK_READ_FAILED);
    invalidateSoon(queryRoots.notifications);
  }
}

/** Applies one `notification:new` (exported for tests; the store listens by itself). */
export function handleNotificationLiveEvent(data: LiveData<'notification:new'>): void {
  liveCounts++;
  const { notification, unread } = data;
  const state = notificationFeed.get();
  // Nothing read and nothing on its way (a failed first read): read it now.
  if (state.data === undefined && !state.fetching) invalidateSoon(queryRoots.notifications);
  else notificationFeed.patch(undefined, (feed) => withNew(feed, notification, unread));
}

onLive('notification:new', handleNotificationLiveEvent);

onReconnect(() => invalidateSoon(queryRoots.notifications));
