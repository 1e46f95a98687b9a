/**
 * Notices (docs/notifications.md).
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { isStorableId } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { marks } from '../sql.js';
import type { NoticesWork, UnmailedNotice } from './types.js';

export class NoticesSql extends SqlSlice implements NoticesWork {
  async claimUnmailedNotices(limit: number): Promise<UnmailedNotice[]> {
    return this.sql.all<UnmailedNotice>(
      `select n.id, n.user_id as "userId", n.kind, n.title, n.body, n.link, n.created_at as "createdAt",
              u.email, u.email_notices as "emailNotices", u.status
       from notifications n join users u on u.id = n.user_id
       where n.mailed_at is null order by n.id limit ?${this.dialect.claim('n')}`,
      [limit],
    );
  }

  async markNoticesMailed(ids: readonly number[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.run(`update notifications set mailed_at = ? where id in (${marks(ids.length)})`, [now, ...ids]);
  }

  async markNotificationsRead(userId: number, ids: readonly number[] | null, now: number): Promise<number> {
    const own = ids === null ? null : [...new Set(ids)].filter(isStorableId);
    if (own === null) {
      await this.sql.run('update notifications set read_at = ? where user_id = ? and read_at is null', [now, userId]);
    } else if (own.length > 0) {
      await this.sql.run(`update notifications set read_at = ? where user_id = ? and read_at is null and id in (${marks(own.length)})`, [now, userId, ...own]);
    }
    return (await this.sql.get<{ n: number }>('select count(*) as n from notifications where user_id = ? and read_at is null', [userId]))?.n ?? 0;
  }
}
