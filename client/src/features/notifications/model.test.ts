import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { badgeText, bellLabel, noticeTime, withNew, withOlderPage, withRead, type NotificationFeed } from './model';
import { NOTICE_NOW, makeNotice } from './testing';

const feed = (ids: number[], unread: number, readIds: number[] = []): NotificationFeed => ({
  notifications: ids.map((id) => makeNotice({ id, read: readIds.includes(id) })), unread, more: true,
});

describe('notifications model', () => {
  it('badge: the count, none at 0, capped at 99+', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
  });

  it('a new notice goes on top once, with the count it carries', () => {
    const next = withNew(feed([2, 1], 1), makeNotice({ id: 3 }), 2);
    expect(next.notifications.map((n) => n.id)).toEqual([3, 2, 1]);
    expect(next.unread).toBe(2);
    const again = withNew(next, makeNotice({ id: 3 }), 2);
    expect(again).toBe(next);
    expect(withNew(next, makeNotice({ id: 3 }), 5).notifications).toHaveLength(3);
  });

  it('a notice sent again under its id (a later standing on the same lot) replaces it where it is, unread again', () => {
    const start: NotificationFeed = { notifications: [makeNotice({ id: 4, kind: 'extended' }), makeNotice({ id: 3, read: true })], unread: 0, more: false };
    const lead = makeNotice({ id: 3, kind: 'reinstated', title: 'You lead again on Leica M6', body: 'A higher bid was cancelled.', minutesAgo: 0 });
    const next = withNew(start, lead, 1);
    expect(next.notifications.map((n) => [n.id, n.kind, n.read])).toEqual([[4, 'extended', false], [3, 'reinstated', false]]);
    expect(next.notifications[1]).toEqual(lead);
    expect(next.unread).toBe(1);
  });

  it('an older page is appended after the notice it was read before, unless the feed moved meanwhile', () => {
    const start = feed([5, 4], 0);
    const next = withOlderPage(start, [makeNotice({ id: 4 }), makeNotice({ id: 3 })], 4, 2);
    expect(next.notifications.map((n) => n.id)).toEqual([5, 4, 3]);
    expect(next.more).toBe(true);
    expect(withOlderPage(start, [makeNotice({ id: 3 })], 4, 2).more).toBe(false);
    expect(withOlderPage(start, [makeNotice({ id: 1 })], 9, 2)).toBe(start);
  });

  it('marking read: those ids (the count lowered by the unread among them), or all', () => {
    const start = feed([3, 2, 1], 2, [1]);
    const one = withRead(start, [2, 1]);
    expect(one.notifications.map((n) => n.read)).toEqual([false, true, true]);
    expect(one.unread).toBe(1);
    expect(withRead(start, [1])).toBe(start);
    const all = withRead(start);
    expect(all.notifications.every((n) => n.read)).toBe(true);
    expect(all.unread).toBe(0);
  });

  it('times: relative within a day, the date and time after', () => {
    const ago = (min: number) => new Date(NOTICE_NOW - min * 60_000).toISOString();
    expect(noticeTime(ago(0.5), NOTICE_NOW)).toBe('Just now');
    expect(noticeTime(ago(5), NOTICE_NOW)).toBe('5 min ago');
    expect(noticeTime(ago(150), NOTICE_NOW)).toBe('2 h ago');
    expect(noticeTime(ago(25 * 60), NOTICE_NOW)).toBe(formatDateTime(ago(25 * 60)));
  });
});
