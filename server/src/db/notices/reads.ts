/**
 * Notices (docs/notifications.md).
 * Its reads, one slice of Reads (reads.ts).
 */
import { isStorableId, notificationColumns, type NotificationRow } from '../rows.js';
import { SqlSlice } from '../slice.js';

export class NoticesReads extends SqlSlice {
  /** A bidder's notices, newest first, older than `before` (an id) when given. */
  async notifications(userId: number, before: number | null, limit: number): Promise<NotificationRow[]> {
    if (!isStorableId(userId)) return [];
    const older = before !== null && before <= 2_147_483_647;
    return this.sql.all<NotificationRow>(
      `select ${notificationColumns('n')} from notifications n where n.user_id = ?${older ? ' and n.id < ?' : ''} order by n.id desc limit ?`,
      older ? [userId, before, limit] : [userId, limit],
    );
  }

  async unreadNotifications(userId: number): Promise<number> {
    if (!isStorableId(userId)) return 0;
    return (await this.sql.get<{ n: number }>('select count(*) as n from notifications where user_id = ? and read_at is null', [userId]))?.n ?? 0;
  }
}
