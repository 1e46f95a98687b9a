/**
 * Writing a change set's notices (docs/notifications.md), in the transaction of the change: deduplicated
 * by key, pruned to what a bidder keeps (NOTICES_KEPT, FINAL_NOTICE_KINDS), with each user's unread count.
 */
import { FINAL_NOTICE_KINDS, NOTICES_KEPT } from '@auction/shared';
import { notificationColumns, type NotificationRow } from '../rows.js';
import { marks, type SqlRunner } from '../sql.js';
import type { AppliedNotice, NoticeDraft } from './types.js';

/**
 * The notices a change set writes, in the order they are written: one per user and `dedupe` key (the
 * first, or with `replace` the last), by user in ascending id order (as every writer takes them) and
 * then as drafted; those that replace a notice with their key first, then those inserted or skipped.
 */
export function orderNotices(drafts: readonly NoticeDraft[]): { replace: NoticeDraft[]; skip: NoticeDraft[] } {
  const byKey = new Map<string, number>();
  const kept: (NoticeDraft | null)[] = [];
  for (const d of drafts) {
    if (d.dedupe === undefined || d.dedupe === null) { kept.push(d); continue; }
    const key = `${d.userId}|${d.dedupe}`;
    const at = byKey.get(key);
    if (at === undefined) { byKey.set(key, kept.length); kept.push(d); continue; }
    if (d.replace) { kept[at] = null; byKey.set(key, kept.length); kept.push(d); }
  }
  const ordered = kept
    .flatMap((d, i) => (d === null ? [] : [{ d, i }]))
    .sort((a, b) => a.d.userId - b.d.userId || a.i - b.i)
    .map((x) => x.d);
  const replaces = (d: NoticeDraft) => Boolean(d.replace && d.dedupe);
  return { replace: ordered.filter(replaces), skip: ordered.filter((d) => !replaces(d)) };
}

/**
 * Writes notices (one statement per 500): those whose `dedupe` key the user has already are skipped,
 * or with `replace` replace that notice in place (within one change set the first of a key wins, or
 * with `replace` the last). Then, per user written to, keeps NOTICES_KEPT (see there: the notices just
 * written, then final outcomes, then the rest, newest first) and counts what is unread. Users in
 * ascending id order, as every writer takes them.
 */
export async function writeNotices(sql: SqlRunner, drafts: readonly NoticeDraft[], now: number): Promise<AppliedNotice[]> {
  if (drafts.length === 0) return [];
  const ordered = orderNotices(drafts);
  const rows: NotificationRow[] = [];
  // Two statements at most: a replaced notice keeps its row (and id), anything else is inserted or skipped.
  const conflict = {
    skip: 'on conflict do nothing',
    replace: `on conflict (user_id, dedupe) where dedupe is not null do update set
      kind = excluded.kind, title = excluded.title, body = excluded.body, link = excluded.link, read_at = null, created_at = excluded.created_at,
      mailed_at = null`,
  };
  // Replacing first: the standing notices come first in every change set that has both kinds.
  for (const mode of ['replace', 'skip'] as const) {
    const mine = ordered[mode];
    for (let at = 0; at < mine.length; at += 500) {
      const chunk = mine.slice(at, at + 500);
      rows.push(...await sql.all<NotificationRow>(
        `insert into notifications (user_id, kind, title, body, link, dedupe, created_at) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}
         ${conflict[mode]} returning ${notificationColumns('notifications')}`,
        chunk.flatMap((d) => [d.userId, d.kind, d.title, d.body, d.link, d.dedupe ?? null, now]),
      ));
    }
  }
  if (rows.length === 0) return [];
  rows.sort((a, b) => a.id - b.id);
  const users = [...new Set(rows.map((r) => r.userId))].sort((a, b) => a - b);
  // Two counts from indexes alone (notifications_user_idx, and the partial notifications_unread_idx):
  // no notice row is read, however many a user keeps.
  const stats = await sql.all<{ userId: number; total: number; unread: number }>(
    `select u.id as "userId",
      (select count(*) from notifications n where n.user_id = u.id) as total,
      (select count(*) from notifications n where n.user_id = u.id and n.read_at is null) as unread
     from users u where u.id in (${marks(users.length)}) order by u.id`,
    users,
  );
  const unread = new Map<number, number>();
  const finals = FINAL_NOTICE_KINDS.map((k) => `'${k}'`).join(', ');
  for (const st of stats) {
    let left = Number(st.unread);
    const excess = Number(st.total) - NOTICES_KEPT;
    if (excess > 0) {
      // The oldest of the rest first, then the oldest final outcomes, and only then (a change that wrote
      // more than NOTICES_KEPT for one user) the oldest of those written just now.
      const written = rows.filter((r) => r.userId === st.userId).map((r) => r.id);
      const gone = await sql.all<{ unread: number }>(
        `delete from notifications where id in (
           select n.id from notifications n where n.user_id = ?
           order by case when n.id in (${marks(written.length)}) then 2 when n.kind in (${finals}) then 1 else 0 end, n.id limit ?)
         returning case when read_at is null then 1 else 0 end as unread`,
        [st.userId, ...written, excess],
      );
      left -= gone.reduce((n, g) => n + Number(g.unread), 0);
    }
    unread.set(st.userId, left);
  }
  return rows.map((row) => ({ row, unread: unread.get(row.userId) ?? 0 }));
}
