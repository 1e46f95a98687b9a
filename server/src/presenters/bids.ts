import { toRupees, type Transaction, type UserBid } from '@auction/shared';
import { maskUsername, type UserBidView } from '../queries/bids.js';
import type { TransactionRow } from '../queries/wallet.js';
import { iso } from './catalogue.js';

export function presentUserBid(b: UserBidView): UserBid {
  return {
    bid_id: b.id, product_id: b.productId, product_name: b.productName, auction_id: b.auctionId, auction_name: b.auctionName,
    amount: toRupees(b.amount), timestamp: iso(b.createdAt), status: b.status, reason: b.reason,
  };
}

/** A product's bid for any caller; the bidder's username only for the admin who owns the auction. */
export function presentProductBid(
  b: { id: number; auctionId: string; amount: number; status: UserBid['status']; createdAt: number; username: string; auctionOwner: number },
  viewerAdminId: number | null,
) {
  return {
    bid_id: b.id, auction_id: b.auctionId, amount: toRupees(b.amount), status: b.status, timestamp: iso(b.createdAt),
    bidder: viewerAdminId !== null && viewerAdminId === b.auctionOwner ? b.username : maskUsername(b.username),
  };
}

export function presentTransaction(t: TransactionRow): Transaction {
  return {
    _id: String(t.id), type: t.type, amount: toRupees(t.amount), timestamp: iso(t.createdAt),
    meta: { notes: t.notes, product_id: t.productId },
  };
}
