/**
 * Notifications (docs/notifications.md): the notices a change writes for bidders, in its own
 * transaction (`ChangeSet.notices`), their live event once it has committed, and the commands of
 * saved lots, of marking notices read and of the clock's "ending soon". Each notice has a title and a
 * body a person reads and a link to the lot page. Money never moves here.
 */
import { formatRupees, toRupees } from '@auction/shared';
import type { Applied, Follower, NoticeDraft, UnitOfWork } from '../db/index.js';
import { refuse, type Result } from '../errors.js';
import type { DomainEvent } from './events.js';

/** The lot page of the web app. */
export const lotLink = (auctionId: string, productId: string) => `/auctions/${auctionId}/products/${productId}`;

const rupees = (paise: number) => formatRupees(toRupees(paise));

/** How far ahead of an end the clock writes `ending_soon` (10 minutes). */
export const ENDING_SOON_S = 600;
/** `extended` is written at most once per bidder per auction per window of this length. */
export const EXTENDED_WINDOW_MS = 5 * 60_000;
/**
 * A bidder's standing on a lot (outbid, reinstated) is told at most once per lot per window of this
 * length (a clock minute): a second change in the window replaces the first notice, so it always says
 * the latest standing and a bid-and-cancel flood cannot fill the bell.
 */
export const STANDING_WINDOW_MS = 60_000;

/** One `notification:new` for every notice a change set wrote, with its user's unread count after. */
export function noticeEvents(applied: Pick<Applied, 'notices'>): DomainEvent[] {
  return applied.notices.map((n) => ({ type: 'notification:new', userId: n.row.userId, notification: n.row, unread: n.unread }));
}

interface Lot { auctionId: string; productId: string; productName: string }

/** The key a bidder's standing notices on a lot share within one STANDING_WINDOW_MS (see there). */
const standing = (lot: Lot, now: number) => ({ dedupe: `standing:${lot.auctionId}:${lot.productId}:${Math.floor(now / STANDING_WINDOW_MS)}`, replace: true });

/** The bidder whose lead was taken by a higher bid (`highest`: the new visible price, paise). */
export function outbidNotice(userId: number, lot: Lot, highest: number, now: number): NoticeDraft {
  return {
    userId, kind: 'outbid', title: `Outbid on ${lot.productName}`, body: `The highest bid is now ${rupees(highest)}.`, link: lotLink(lot.auctionId, lot.productId),
    ...standing(lot, now),
  };
}

/** The leader of a lot someone bought at its buy-now price. */
export function outbidByBuyNowNotice(userId: number, lot: Lot, price: number, now: number): NoticeDraft {
  return {
    userId, kind: 'outbid', title: `Outbid on ${lot.productName}`,
    body: `It was bought at its buy-now price of ${rupees(price)}. Your hold is back in your wallet.`, link: lotLink(lot.auctionId, lot.productId),
    ...standing(lot, now),
  };
}

/** The bidder whose earlier bid leads again (a higher bid was cancelled, or its bidder deactivated). */
export function reinstatedNotice(userId: number, lot: Lot, amount: number, reason: 'CANCELLED' | 'ACCOUNT_INACTIVE', now: number): NoticeDraft {
  const why = reason === 'CANCELLED' ? 'A higher bid was cancelled' : 'The higher bidder’s account was closed';
  return {
    userId, kind: 'reinstated', title: `You lead again on ${lot.productName}`,
    body: `${why}: your bid of ${rupees(amount)} is the highest again and is held from your wallet.`, link: lotLink(lot.auctionId, lot.productId),
    ...standing(lot, now),
  };
}

export function wonNotice(userId: number, lot: Lot, amount: number): NoticeDraft {
  return {
    userId, kind: 'won', title: `You won ${lot.productName}`, body: `Your winning bid of ${rupees(amount)} has been paid from your wallet.`,
    link: lotLink(lot.auctionId, lot.productId), dedupe: `won:${lot.auctionId}:${lot.productId}`,
  };
}

export function lostNotice(userId: number, lot: Lot, amount: number): NoticeDraft {
  return {
    userId, kind: 'lost', title: `You did not win ${lot.productName}`, body: `It sold to another bidder for ${rupees(amount)}.`,
    link: lotLink(lot.auctionId, lot.productId), dedupe: `lost:${lot.auctionId}:${lot.productId}`,
  };
}

/** The leader of a lot whose highest bid stayed below its reserve at the close. */
export function unsoldNotice(userId: number, lot: Lot, amount: number): NoticeDraft {
  return {
    userId, kind: 'unsold', title: `Reserve not met on ${lot.productName}`,
    body: `Your bid of ${rupees(amount)} did not reach the seller’s reserve, so the lot was not sold. Your hold is back in your wallet.`,
    link: lotLink(lot.auctionId, lot.productId), dedupe: `unsold:${lot.auctionId}:${lot.productId}`,
  };
}

/** Bidders on and savers of a lot bought at its buy-now price (not the buyer; the leader is told `outbid`). */
export function boughtNowNotices(followers: readonly Follower[], lot: Lot, price: number, except: readonly number[]): NoticeDraft[] {
  return distinctUsers(followers).filter((userId) => !except.includes(userId)).map((userId) => ({
    userId, kind: 'bought_now' as const, title: `${lot.productName} was bought`,
    body: `Another bidder bought it at its buy-now price of ${rupees(price)}.`, link: lotLink(lot.auctionId, lot.productId),
  }));
}

/** "2 min", "45 s", "1 min 30 s". */
function duration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  const m = Math.floor(s / 60);
  const rest = s % 60;
  if (m === 0) return `${rest} s`;
  return rest === 0 ? `${m} min` : `${m} min ${rest} s`;
}

/**
 * Bidders on and savers of the auction's lots when a late bid extends it (soft close), except the
 * bidder who extended it: at most one per bidder per auction per 5 minutes (a dedupe key with the
 * window), each linking to the lot bid on if they follow it, else to the first lot they follow.
 */
export function extendedNotices(
  followers: readonly Follower[],
  a: { auctionId: string; auctionName: string; productId: string; productName: string; bidderId: number; oldEnd: number; newEnd: number; now: number },
): NoticeDraft[] {
  const window = Math.floor(a.now / EXTENDED_WINDOW_MS);
  return lotsByUser(followers).filter(([userId]) => userId !== a.bidderId).map(([userId, lots]) => {
    const lot = lots.find((l) => l.productId === a.productId) ?? lots[0]!;
    return {
      userId, kind: 'extended' as const, title: `${a.auctionName} was extended`,
      body: `A late bid on ${a.productName} moved the end by ${duration(a.newEnd - a.oldEnd)}: there is still time to bid.`,
      link: lotLink(a.auctionId, lot.productId), dedupe: `extended:${a.auctionId}:${window}`,
    };
  });
}

/**
 * An auction's "ending soon" is written at most once per bidder per clock hour in which it falls due
 * (10 minutes before the end): an end edited again and again (or moved a little later) tells no one
 * twice, while an end moved an hour or more later gets a notice of its own when it nears.
 */
export const ENDING_SOON_WINDOW_MS = 3_600_000;

/** Bidders on and savers of an auction's lots, 10 minutes before its end: one per bidder per auction per hour (ENDING_SOON_WINDOW_MS). */
export function endingSoonNotices(followers: readonly Follower[], a: { auctionId: string; auctionName: string; validUntil: number }): NoticeDraft[] {
  const due = a.validUntil - ENDING_SOON_S * 1000;
  return lotsByUser(followers).map(([userId, lots]) => {
    const first = lots[0]!;
    const more = lots.length - 1;
    return {
      userId, kind: 'ending_soon' as const,
      title: `Ending soon: ${first.productName}${more > 0 ? ` and ${more} more` : ''}`,
      body: `${a.auctionName} ends in 10 minutes. Bids in the last minutes may extend it.`,
      link: lotLink(a.auctionId, first.productId), dedupe: `ending_soon:${a.auctionId}:${Math.floor(due / ENDING_SOON_WINDOW_MS)}`,
    };
  });
}

const distinctUsers = (followers: readonly Follower[]) => [...new Set(followers.map((f) => f.userId))];

function lotsByUser(followers: readonly Follower[]): [number, Follower[]][] {
  const by = new Map<number, Follower[]>();
  for (const f of followers) by.set(f.userId, [...(by.get(f.userId) ?? []), f]);
  return [...by];
}

// ---- commands --------------------------------------------------------------------------------

/**
 * The clock's "ending soon" (10 minutes before `validUntil`): a notice to each bidder on and saver of
 * the auction's lots, once per bidder, auction and hour it falls due (the dedupe key holds across
 * restarts, processes and edits of the end).
 * Nothing when the end has moved, the auction is gone or settled, or the end has passed.
 */
export async function noticeEndingSoon(tx: UnitOfWork, cmd: { auctionId: string; validUntil: number }, now: number): Promise<Result<{ written: number; events: DomainEvent[] }>> {
  const auction = await tx.auction(cmd.auctionId);
  if (!auction || auction.settledAt !== null || auction.validUntil !== cmd.validUntil || now >= auction.validUntil) return { ok: true, written: 0, events: [] };
  const followers = await tx.followersOf(auction.id, { savers: true });
  const applied = await tx.apply({ notices: endingSoonNotices(followers, { auctionId: auction.id, auctionName: auction.name, validUntil: auction.validUntil }) }, now);
  return { ok: true, written: applied.notices.length, events: noticeEvents(applied) };
}

/** Saves a lot for a bidder (idempotent); an unknown or deleted product, or an admin's draft (in no auction), is 404. */
export async function saveLot(tx: UnitOfWork, cmd: { userId: number; productId: string }, now: number): Promise<Result<{ saved: boolean }>> {
  if (!(await tx.productListed(cmd.productId))) return refuse('NOT_FOUND', 'Product not found');
  return { ok: true, saved: await tx.saveLot(cmd.userId, cmd.productId, now) };
}

/**
 * Forgets a saved lot (idempotent); an unknown or deleted product is 404, and so is an admin's draft
 * unless the bidder had saved it (it was listed then, and went back to its seller unsold).
 */
export async function unsaveLot(tx: UnitOfWork, cmd: { userId: number; productId: string }): Promise<Result<object>> {
  const forgotten = await tx.unsaveLot(cmd.userId, cmd.productId);
  if (!forgotten && !(await tx.productListed(cmd.productId))) return refuse('NOT_FOUND', 'Product not found');
  return { ok: true };
}

/** Marks the caller's notices read: `ids` (others' ids change nothing), or all of them. */
export async function markNoticesRead(tx: UnitOfWork, cmd: { userId: number; ids: readonly number[] | null }, now: number): Promise<Result<{ unread: number }>> {
  return { ok: true, unread: await tx.markNotificationsRead(cmd.userId, cmd.ids, now) };
}
