/** Notices (docs/notifications.md): the types. */
import type { NotificationKind, NotificationRow } from '../rows.js';

/** A notice a change writes for one bidder (docs/notifications.md). */
export interface NoticeDraft {
  userId: number;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  /** Written at most once per user with this key (e.g. `won:{auctionId}:{productId}`); null or left out: always. */
  dedupe?: string | null;
  /**
   * With `dedupe`: a notice the user already has under this key is replaced by this one (the same row
   * and id, its kind, title, body and link; unread again, dated now) instead of this one being skipped.
   */
  replace?: boolean;
}

/** A notice written, with its user's unread count after the change (for `notification:new`). */
export interface AppliedNotice {
  row: NotificationRow;
  unread: number;
}

/** A notice waiting to be turned into email, with what decides whether it is. */
export interface UnmailedNotice {
  id: number;
  userId: number;
  kind: string;
  title: string;
  body: string;
  link: string;
  createdAt: number;
  /** The bidder's confirmed address, or null. */
  email: string | null;
  /** The kinds the bidder gets by email, comma-separated. */
  emailNotices: string;
  status: string;
}

/** What a unit of work reads and writes of notices (docs/notifications.md); part of UnitOfWork (store.ts). */
export interface NoticesWork {
  /** Marks the user's unread notices read (only `ids` when given; others' ids change nothing); the unread count after. */
  markNotificationsRead(userId: number, ids: readonly number[] | null, now: number): Promise<number>;
  /**
   * Up to `limit` notices not yet turned into email, oldest first, with their bidder's address and
   * choices; claimed (locked, skipping those another transaction holds) until commit.
   */
  claimUnmailedNotices(limit: number): Promise<UnmailedNotice[]>;
  /** These notices are done with: mailed, or not to be. */
  markNoticesMailed(ids: readonly number[], now: number): Promise<void>;
}
