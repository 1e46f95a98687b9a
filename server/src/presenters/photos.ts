/** Photos and the lot page (docs/photos.md, DESIGN §9.5–9.6). */
import { toRupees, type LotHistoryEntry, type ProductImageDetail } from '@auction/shared';
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
  const firstBid = new Map<number, number>();
  for (const r of rows) if (!r.auto) firstBid.set(r.userId, Math.min(firstBid.get(r.userId) ?? Infinity, r.bidId));
  const alias = new Map([...firstBid].sort((a, b) => a[1] - b[1]).map(([userId], i) => [userId, `Bidder ${i + 1}`]));
  const bidderOf = (r: LotHistoryView) => {
    if (viewer.userId !== null && r.userId === viewer.userId) return 'You';
    if (viewer.auctionAdmin) return r.username;
    return alias.get(r.userId) ?? 'Bidder';
  };
  return rows.map((r) => ({
    bid_id: r.bidId, amount: toRupees(r.amount), status: r.status, timestamp: iso(r.createdAt), bidder: bidderOf(r), auto: r.auto,
  }));
}
