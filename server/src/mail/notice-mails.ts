/**
 * Notice emails. A change writes its notices in its own transaction (domain/notices.ts), each with
 * `mailed_at` null: that row is the outbox entry of its email, so the bid path writes nothing more
 * and reads no preferences. The sending process turns pending notices into mails here, in
 * transactions of their own: each notice becomes one mail or none (no confirmed address, the kind
 * turned off, the account closed, an outbid email about the same lot in the last 10 minutes) and is
 * marked in the same transaction, so none is mailed twice and none is lost to a crash.
 */
import { OUTBID_MAIL_MINUTES, type NotificationKind } from '@auction/shared';
import type { MailDraft, Store, UnmailedNotice } from '../db/index.js';
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
    this.batch = opts.batch ?? 100;
  }

  /** Turns every pending notice into its email or into none; how many mails were written. */
  async run(): Promise<number> {
    let written = 0;
    for (;;) {
      // Four statements whatever the batch (claim, spacing, mails, marks): a bid that replaces or trims
      // a claimed notice waits for this transaction, so it stays short.
      const { claimed, mails } = await this.store.transaction(async (tx) => {
        const notices = await tx.claimUnmailedNotices(this.batch);
        const now = this.opts.now();
        const drafts = notices.map((n) => this.mailFor(n)).filter((m) => m !== null);
        const spaced = drafts.filter((m) => m.topic !== undefined).map((m) => ({ userId: m.userId!, topic: m.topic! }));
        const recent = await tx.mailedTopicsSince(spaced, now - OUTBID_MAIL_MS);
        const out: MailDraft[] = [];
        for (const m of drafts) {
          if (m.topic !== undefined) {
            const key = `${m.userId}|${m.topic}`;
            if (recent.has(key)) continue;
            // Two notices of one batch about the same lot: the first one's mail only.
            recent.add(key);
          }
          out.push(m);
        }
        await tx.enqueueMails(out, now);
        await tx.markNoticesMailed(notices.map((n) => n.id), now);
        return { claimed: notices.length, mails: out.length };
      });
      written += mails;
      if (claimed < this.batch) return written;
    }
  }

  private mailFor(n: UnmailedNotice): MailDraft | null {
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
