import { toRupees, wireBidStatus, type OwnBid, type Transaction, type UserBid } from '@auction/shared';
import type { ProductBidView, TransactionRow, UserBidView } from '../db/index.js';
import { auctionStatus, iso, maskUsername } from './format.js';

/** A bid as its bidder's own answers give it: without its auction's state (the answers to placing it). */
export function presentUserBid(b: Omit<UserBidView, 'auctionValidUntil' | 'auctionSettledAt' | 'auctionCancelPolicy'>): OwnBid {
  return {
    bid_id: b.id, product_id: b.productId, product_name: b.productName, auction_id: b.auctionId, auction_name: b.auctionName,
    amount: toRupees(b.amount), timestamp: iso(b.createdAt), status: wireBidStatus(b.status), state: b.status, reason: b.reason,
    max_amount: b.maxAmount === null ? null : toRupees(b.maxAmount), buy_now: Boolean(b.buyNow),
  };
}

/** A bid in its bidder's lists: with its auction's end, status (at `now`) and cancel policy, which say whether it can still be cancelled. */
export function presentListedBid(b: UserBidView, now: number): UserBid {
  return {
    ...presentUserBid(b),
    auction_valid_until: iso(b.auctionValidUntil),
    auction_status: auctionStatus({ validUntil: b.auctionValidUntil, settledAt: b.auctionSettledAt }, now),
    auction_cancel_policy: b.auctionCancelPolicy,
  };
}

/** A product's bid for any caller; the bidder's username only for the admin who owns the auction. */
export function presentProductBid(b: ProductBidView, viewerAdminId: number | null) {
  return {
    bid_id: b.id, auction_id: b.auctionId, amount: toRupees(b.amount), status: wireBidStatus(b.status), state: b.status, timestamp: iso(b.createdAt),
    bidder: viewerAdminId !== null && viewerAdminId === b.auctionOwner ? b.username : maskUsername(b.username),
    buy_now: Boolean(b.buyNow),
  };
}

const KIND_OF_TYPE = { topup: 'topup', bid: 'hold', refund: 'release' } as const;

/**
 * A ledger row; `product_name` is null for a row read without its product's name (a top-up has none).
 * A row read without its kind (a top-up just written) takes its type's plain meaning.
 */
export function presentTransaction(t: TransactionRow & { productName?: string | null; kind?: Transaction['kind']; buyNow?: boolean | number | null }): Transaction {
  return {
    _id: String(t.id), type: t.type, kind: t.kind ?? KIND_OF_TYPE[t.type], amount: toRupees(t.amount), timestamp: iso(t.createdAt),
    meta: { notes: t.notes, product_id: t.productId, product_name: t.productName ?? null, buy_now: Boolean(t.buyNow) },
  };
}
