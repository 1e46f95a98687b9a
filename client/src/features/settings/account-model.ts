/** The Account page's words: an address's state, and each kind of notice as the bidder reads it. */
import { OUTBID_MAIL_MINUTES, type Me, type NotificationKind, type NotificationSettings } from '@auction/shared';

export type EmailState = 'none' | 'pending' | 'confirmed';

export function emailState(me: Pick<Me, 'email' | 'email_verified'>): EmailState {
  if (!me.email) return 'none';
  return me.email_verified ? 'confirmed' : 'pending';
}

/** Each kind of notice, in the order shown (the ones mailed by default first), with what it tells. */
export const NOTICE_KINDS: Record<NotificationKind, { label: string; description: string }> = {
  outbid: { label: 'Outbid', description: `Someone bids more than you on a lot you lead (at most one email per lot every ${OUTBID_MAIL_MINUTES} minutes).` },
  won: { label: 'You won', description: 'A lot you bid on is yours when the auction ends.' },
  ending_soon: { label: 'Ending soon', description: 'An auction with a lot you bid on or saved ends in 10 minutes.' },
  lost: { label: 'You did not win', description: 'A lot you bid on sold to another bidder.' },
  reinstated: { label: 'You lead again', description: 'A higher bid was cancelled and your bid is the highest again.' },
  extended: { label: 'Auction extended', description: 'A late bid moved the end of an auction you follow.' },
  unsold: { label: 'Reserve not met', description: 'Your highest bid did not reach the seller’s reserve, so the lot was not sold.' },
  bought_now: { label: 'Bought now', description: 'A lot you follow was bought at its buy-now price.' },
};

export const NOTICE_ORDER = Object.keys(NOTICE_KINDS) as NotificationKind[];

export type NoticeDraft = Partial<Record<NotificationKind, boolean>>;

/** The kinds the bidder switched from what the server holds: what a save sends (the body is partial). */
export function changedKinds(saved: NotificationSettings['email'], draft: NoticeDraft): NoticeDraft {
  const changed: NoticeDraft = {};
  for (const kind of NOTICE_ORDER) {
    const want = draft[kind];
    if (want !== undefined && want !== saved[kind]) changed[kind] = want;
  }
  return changed;
}
