/**
 * The mail outbox (docs/email.md).
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { SqlSlice } from '../slice.js';
import type { MailDraft, MailWork } from './types.js';

export class MailSql extends SqlSlice implements MailWork {
  async enqueueMail(mail: MailDraft, now: number): Promise<number> {
    const row = await this.sql.get<{ id: number }>(
      `insert into mail_outbox (kind, to_address, subject, text_body, html_body, headers, created_at, attempts, next_attempt_at, user_id, topic)
       values (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) returning id`,
      [mail.kind, mail.to, mail.subject, mail.text, mail.html, JSON.stringify(mail.headers ?? {}), now, now, mail.userId ?? null, mail.topic ?? null],
    );
    return row!.id;
  }

  async mailedTopicsSince(pairs: readonly { userId: number; topic: string }[], since: number): Promise<Set<string>> {
    if (pairs.length === 0) return new Set();
    const rows = await this.sql.all<{ userId: number; topic: string }>(
      `select distinct user_id as "userId", topic from mail_outbox
       where topic is not null and created_at > ? and (${pairs.map(() => '(user_id = ? and topic = ?)').join(' or ')})`,
      [since, ...pairs.flatMap((p) => [p.userId, p.topic])],
    );
    return new Set(rows.map((r) => `${r.userId}|${r.topic}`));
  }

  async enqueueMails(mails: readonly MailDraft[], now: number): Promise<void> {
    for (let at = 0; at < mails.length; at += 100) {
      const chunk = mails.slice(at, at + 100);
      await this.sql.run(
        `insert into mail_outbox (kind, to_address, subject, text_body, html_body, headers, created_at, attempts, next_attempt_at, user_id, topic)
         values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((m) => [m.kind, m.to, m.subject, m.text, m.html, JSON.stringify(m.headers ?? {}), now, now, m.userId ?? null, m.topic ?? null]),
      );
    }
  }

  async countMailTo(address: string, kind: string, now: number, windowMs: number): Promise<number> {
    // One statement, so the row's lock covers the read and the write (both stores' upsert).
    const row = await this.sql.get<{ sent: number }>(
      `insert into mail_caps (address, kind, window_start, sent) values (?, ?, ?, 1)
       on conflict (address, kind) do update set
         sent = case when mail_caps.window_start > ? then mail_caps.sent + 1 else 1 end,
         window_start = case when mail_caps.window_start > ? then mail_caps.window_start else excluded.window_start end
       returning sent`,
      [address, kind, now, now - windowMs, now - windowMs],
    );
    return Number(row!.sent);
  }

  async mailSent(id: number, now: number): Promise<void> {
    await this.sql.run('update mail_outbox set sent_at = ?, attempts = attempts + 1, last_error = null where id = ?', [now, id]);
  }

  async mailRetry(id: number, attempts: number, nextAt: number, error: string): Promise<void> {
    await this.sql.run('update mail_outbox set attempts = ?, next_attempt_at = ?, last_error = ? where id = ? and sent_at is null', [attempts, nextAt, error.slice(0, 500), id]);
  }

  async mailFailed(id: number, attempts: number, now: number, error: string): Promise<void> {
    await this.sql.run('update mail_outbox set attempts = ?, failed_at = ?, last_error = ? where id = ? and sent_at is null', [attempts, now, error.slice(0, 500), id]);
  }
}
