/**
 * Notice emails. A change writes its notices in its own transaction (domain/notices.ts), each with
 * `mailed_at` null: that row is the outbox entry of its email, so the bid path writes nothing more
 * and reads no preferences. The sending process turns pending notices into mails here, in
 * transactions of their own: each notice becomes one mail or none (no confirmed address, the kind
 * turned off, the account closed, an outbid email about the same lot in the last 10 minutes) and is
 * marked in the same transaction, so none is mailed twice and none is lost to a crash.
 */
import { OUTBID_MAIL_MINUTES, type NotificationKind } from '@auction/shared';
import type { Store, UnmailedNotice } from '../db/index.js';
import { noticeMail } from './messages.js';
import type { UnsubscribeTokens } from './links.js';

export interface NoticeMailOptions {
  now: () => number;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  unsubscribe: UnsubscribeTokens;
  /** Notices claimed per transaction. */
  batch?: number;
}

export const OUTBID_MAIL_MS = OUTBID_MAIL_MINUTES * 60_000;

export class NoticeMails {
  private readonly batch: number;

  constructor(private readonly store: Store, private readonly opts: NoticeMailOptions) {
    this.batch = opts.batch ?? 200;
  }

  /** Turns every pending notice into its email or into none; how many mails were written. */
  async run(): Promise<number> {
    let written = 0;
    for (;;) {
      const { claimed, mails } = await this.store.transaction(async (tx) => {
        const notices = await tx.claimUnmailedNotices(this.batch);
        const now = this.opts.now();
        let count = 0;
        for (const n of notices) {
          const mail = this.mailFor(n);
          if (!mail) continue;
          if (mail.topic && (await tx.mailedTopicSince(n.userId, mail.topic, now - OUTBID_MAIL_MS))) continue;
          await tx.enqueueMail(mail, now);
          count++;
        }
        await tx.markNoticesMailed(notices.map((n) => n.id), now);
        return { claimed: notices.length, mails: count };
      });
      written += mails;
      if (claimed < this.batch) return written;
    }
  }

  private mailFor(n: UnmailedNotice) {
    if (n.email === null || n.status !== 'active') return null;
    const kind = n.kind as NotificationKind;
    if (!n.emailNotices.split(',').includes(kind)) return null;
    const { publicUrl, unsubscribe } = this.opts;
    const token = encodeURIComponent(unsubscribe.sign(n.userId, kind));
    return noticeMail({
      to: n.email, userId: n.userId, kind, title: n.title, body: n.body,
      lotUrl: `${publicUrl}${n.link}`,
      unsubscribeUrl: `${publicUrl}/unsubscribe?token=${token}`,
      oneClickUrl: `${publicUrl}/api/unsubscribe?token=${token}`,
      settingsUrl: `${publicUrl}/user/account`,
      // The lot page names the lot: one outbid email per lot per bidder in OUTBID_MAIL_MS.
      ...(kind === 'outbid' ? { topic: `outbid:${n.link}` } : {}),
    });
  }
}
