/** Photos and the lot page (docs/photos.md). */
import { toRupees, wireBidStatus, type LotHistoryEntry, type ProductImageDetail } from '@auction/shared';
import type { LotHistoryView, ProductImageRow } from '../db/index.js';
import { mediaUrl } from './catalogue.js';
import { iso } from './format.js';

export function presentImageDetail(i: ProductImageRow): ProductImageDetail {
  return { id: i.id, url: mediaUrl(i.imageName), thumb_url: mediaUrl(i.thumbName), width: i.width, height: i.height };
}

/**
 * A lot's history as `viewer` may see it: the caller's own entries read "You", the auction's own
 * admin sees usernames, everyone else "Bidder n", n numbering the bidders in the order of their first
 * bid on the lot (the same numbers for every viewer: the caller's own number is simply not shown).
 */
export function presentLotHistory(rows: LotHistoryView[], viewer: { userId: number | null; auctionAdmin: boolean }): LotHistoryEntry[] {
  const bidderOf = (r: LotHistoryView) => {
    if (viewer.userId !== null && r.userId === viewer.userId) return 'You';
    if (viewer.auctionAdmin) return r.username;
    // Numbered by the store over the whole lot, so every page of the history agrees.
    return r.alias === null ? 'Bidder' : `Bidder ${r.alias}`;
  };
  return rows.map((r) => ({
    bid_id: r.bidId, amount: toRupees(r.amount), status: wireBidStatus(r.status), state: r.status, timestamp: iso(r.createdAt), bidder: bidderOf(r), auto: r.auto, buy_now: r.buyNow,
  }));
}

/** The cursor of a lot's history after this entry (`next_before`): its place in the order, as text. */
export function presentLotHistoryCursor(r: Pick<LotHistoryView, 'amount' | 'createdAt' | 'auto' | 'bidId'>): string {
  return `${r.amount}.${r.createdAt}.${r.auto ? 1 : 0}.${r.bidId}`;
}
