/** The bell's pure rules: the feed's changes, the badge, each kind's icon and the time shown. */
import type { Notification, NotificationKind } from '@auction/shared';
import type { IconName } from '../../components/ui/Icon';
import { formatDateTime } from '../../lib/format';

/** Notices read per page (the server allows up to 100). */
export const NOTIFICATIONS_PAGE = 20;

/** What the bell shows: the notices read so far, newest first, and the caller's unread count. */
export interface NotificationFeed {
  notifications: Notification[];
  unread: number;
  /** The last page read was full: older notices may follow ("Load more"). */
  more: boolean;
}

/**
 * A `notification:new`: the notice on top, the count from the event. An id already shown is that notice
 * changed (a bidder's standing on a lot is told once per lot per minute: the server replaces the notice
 * and sends it again, docs/notifications.md): it is replaced where it is, never shown twice.
 */
export function withNew(feed: NotificationFeed, notification: Notification, unread: number): NotificationFeed {
  const at = feed.notifications.findIndex((n) => n.id === notification.id);
  if (at === -1) return { ...feed, notifications: [notification, ...feed.notifications], unread };
  const shown = feed.notifications[at]!;
  const same = (Object.keys(notification) as (keyof Notification)[]).every((k) => shown[k] === notification[k]);
  if (same) return feed.unread === unread ? feed : { ...feed, unread };
  return { ...feed, notifications: feed.notifications.map((n, i) => (i === at ? notification : n)), unread };
}

/**
 * An older page, read with `before`: appended when the feed still ends where it was read from (a
 * re-read of the first page meanwhile would leave a gap, so the page is dropped), duplicates skipped.
 */
export function withOlderPage(feed: NotificationFeed, page: Notification[], before: number, pageSize = NOTIFICATIONS_PAGE): NotificationFeed {
  if (feed.notifications.at(-1)?.id !== before) return feed;
  const known = new Set(feed.notifications.map((n) => n.id));
  return { ...feed, notifications: [...feed.notifications, ...page.filter((n) => !known.has(n.id))], more: page.length >= pageSize };
}

/** Those notices (every one without `ids`) shown read, the count lowered by the unread ones among them. */
export function withRead(feed: NotificationFeed, ids?: readonly number[]): NotificationFeed {
  const hit = (n: Notification) => !n.read && (ids === undefined || ids.includes(n.id));
  const changed = feed.notifications.filter(hit).length;
  if (changed === 0 && ids !== undefined) return feed;
  return {
    ...feed,
    notifications: changed === 0 ? feed.notifications : feed.notifications.map((n) => (hit(n) ? { ...n, read: true } : n)),
    unread: ids === undefined ? 0 : Math.max(0, feed.unread - changed),
  };
}

/** The badge's text: the count, capped at "99+"; none at 0. */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? '99+' : String(unread);
}

/** The bell's accessible name. */
export function bellLabel(unread: number): string {
  return unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/** Each kind's icon and tone (the colour of its icon). */
export const KIND_LOOK: Record<NotificationKind, { icon: IconName; tone: 'danger' | 'success' | 'info' | 'warning' | 'muted' }> = {
  outbid: { icon: 'alert', tone: 'danger' },
  reinstated: { icon: 'refresh', tone: 'success' },
  won: { icon: 'check', tone: 'success' },
  lost: { icon: 'info', tone: 'muted' },
  unsold: { icon: 'info', tone: 'muted' },
  bought_now: { icon: 'bolt', tone: 'warning' },
  extended: { icon: 'clock', tone: 'info' },
  ending_soon: { icon: 'clock', tone: 'warning' },
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** "Just now", "5 min ago", "3 h ago" within a day; the date and time after that (formatDateTime). */
export function noticeTime(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return formatDateTime(iso);
  const ago = now - at;
  if (ago < MINUTE) return 'Just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < 24 * HOUR) return `${Math.floor(ago / HOUR)} h ago`;
  return formatDateTime(iso);
}
