/** Fixtures for the notifications feature's tests (and other features' tests of notice links). */
import type { Notification } from '@auction/shared';

export const NOTICE_NOW = Date.parse('2026-11-24T08:00:00.000Z');

/** A notice `minutesAgo` before NOTICE_NOW (unread, an outbid on P-1 of AUC-1 unless told). */
export function makeNotice(over: Partial<Notification> & { minutesAgo?: number } = {}): Notification {
  const { minutesAgo = 5, ...rest } = over;
  return {
    id: 1, kind: 'outbid', title: 'Outbid on Leica M6', body: 'The highest bid is now ₹1,001.',
    link: '/auctions/AUC-1/products/P-1', created_at: new Date(NOTICE_NOW - minutesAgo * 60_000).toISOString(), read: false, ...rest,
  };
}
