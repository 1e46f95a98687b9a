/**
 * The mail outbox (docs/email.md).
 * Its reads, one slice of Reads (reads.ts).
 */
import { SqlSlice } from '../slice.js';
import type { MailRow } from './types.js';

export class MailReads extends SqlSlice {
  /** Outbox mails due by `now` (neither sent nor failed), oldest first. */
  async dueMails(now: number, limit: number): Promise<MailRow[]> {
    const rows = await this.sql.all<Omit<MailRow, 'headers'> & { headers: string }>(
      `select id, kind, to_address as "to", subject, text_body as "text", html_body as "html", headers, attempts, created_at as "createdAt"
       from mail_outbox where sent_at is null and failed_at is null and next_attempt_at <= ? order by next_attempt_at, id limit ?`,
      [now, limit],
    );
    return rows.map((r) => ({ ...r, headers: JSON.parse(r.headers) as Record<string, string> }));
  }
}
