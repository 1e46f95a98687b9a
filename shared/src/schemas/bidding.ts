import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { FLAT_STEPS, bidTooLowFor, minNextBid } from '../bidding-rules.js';
import { toPaise, toRupees } from '../money.js';
import { BeforeId, CallerRef, IdRef, PageLimit, Rupees, X_MISSING } from './common.js';
import { BID_STATUSES, CANCEL_POLICIES, WIRE_BID_STATUSES, literalUnion } from './enums.js';

export const BID_MESSAGES = { invalid: 'Please enter a valid bid amount' } as const;

/** The smallest bid accepted over `highest` (rupees; 0 = no bid) with ₹1 steps and no starting price. */
export function minimumBid(highest: number): number {
  return toRupees(minNextBid({ steps: FLAT_STEPS, startingPrice: 0, highest: toPaise(highest), hasBid: highest > 0 }));
}

/**
 * Why a bid of `amount` over the current `highest` (both rupees; 0 = no bid) is too low on a lot with
 * the spec's ₹1 steps and no starting price; null when it is high enough. A lot's own rules are in
 * `bidTooLowFor` (bidding-rules.ts), which the server's decision uses.
 */
export function bidTooLow(amount: number, highest: number): string | null {
  return bidTooLowFor(toPaise(amount), { steps: FLAT_STEPS, startingPrice: 0, highest: toPaise(highest), hasBid: highest > 0 });
}

export const BidStatus = literalUnion(BID_STATUSES);
export type BidStatus = Static<typeof BidStatus>;

/** What the spec's clients read: `won` is `success`, `outbid` and `unsold` are `failed`. */
export const WireBidStatus = literalUnion(WIRE_BID_STATUSES, { description: 'The spec’s three: won → success; outbid, unsold → failed. The full status is `state`' });
export type WireBidStatus = Static<typeof WireBidStatus>;
const WIRE_STATUS_OF: Record<BidStatus, WireBidStatus> = { success: 'success', won: 'success', outbid: 'failed', unsold: 'failed', failed: 'failed', rolledback: 'rolledback' };
export const wireBidStatus = (state: BidStatus): WireBidStatus => WIRE_STATUS_OF[state];

/** A product's id or, as existing clients send it, its name. */
const ProductRef = Type.String({ minLength: 1, maxLength: Math.max(LIMITS.idMax, LIMITS.nameMax), pattern: '\\S', [X_MISSING]: BID_MESSAGES.invalid });

export const PlaceBidBody = Type.Object({
  product_name: Type.Optional(ProductRef),
  product_id: Type.Optional(ProductRef),
  /** Optional when `max_amount` is given (a proxy bid starts at the lowest price that leads). */
  bid_amount: Type.Optional(Rupees({ exclusiveMinimum: 0, maximum: LIMITS.bidMaxRupees, message: BID_MESSAGES.invalid, missing: BID_MESSAGES.invalid })),
  /** The most the server may bid for the caller, step by step (docs/bidding.md#maximum-bids). */
  max_amount: Type.Optional(Rupees({ exclusiveMinimum: 0, maximum: LIMITS.bidMaxRupees, message: 'Please enter a valid maximum bid' })),
  user_id: Type.Optional(CallerRef),
  username: Type.Optional(CallerRef),
});
export type PlaceBidBody = Static<typeof PlaceBidBody>;

/** A bid of the caller's own, as the answers to placing it give it (`POST /bid`, `POST /buy-now`). */
export const OwnBid = Type.Object({
  bid_id: Type.Integer(),
  product_id: Type.String(),
  product_name: Type.String(),
  auction_id: Type.String(),
  auction_name: Type.String(),
  amount: Type.Number(),
  timestamp: Type.String(),
  status: WireBidStatus,
  state: BidStatus,
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why a bid failed or was released' }),
  max_amount: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'A proxy bid’s maximum' })),
  buy_now: Type.Optional(Type.Boolean({ description: 'Bought at the buy-now price' })),
});
export type OwnBid = Static<typeof OwnBid>;

/**
 * A bid in the bidder's own lists (`GET /user-bids`, `/user-bids/auction/{id}`), with what its auction
 * says of cancelling it (docs/bidding.md#cancelling-a-bid): its end, its status and its cancel policy,
 * so a list offers Cancel without reading the auctions.
 */
export const UserBid = Type.Object({
  ...OwnBid.properties,
  auction_valid_until: Type.String({ description: 'Its auction’s end (ISO-8601 in TIMEZONE’s offset), as soft close has moved it' }),
  // The auction's `status` as every auction shape has it (catalogue.ts's AuctionStatus; that module imports this one).
  auction_status: Type.Union([Type.Literal('active'), Type.Literal('ended'), Type.Literal('settled')], { description: 'Its auction’s status now' }),
  auction_cancel_policy: literalUnion(CANCEL_POLICIES, { description: 'Its auction’s cancel policy (docs/bidding.md#cancelling-a-bid)' }),
});
export type UserBid = Static<typeof UserBid>;

export const BidPlaced = Type.Object({
  message: Type.String(),
  bid: OwnBid,
  highest_bid: Type.Number(),
  wallet_balance: Type.Number(),
  /** The product's version after this bid: live events about it carry this version or a newer one (docs/live-protocol.md#versions-and-applying-events). */
  version: Type.Integer(),
  /** False when an automatic bid of the leader answered at once: the caller is outbid (docs/bidding.md#maximum-bids). */
  leading: Type.Boolean(),
  max_amount: Type.Union([Type.Number(), Type.Null()]),
  min_next_bid: Type.Number(),
  /** Rupees: what a win at min_next_bid costs in all, premium and GST included (docs/money.md#all-in-prices). Optional in the type only: always sent. */
  min_next_bid_all_in: Type.Optional(Type.Number()),
});
export type BidPlaced = Static<typeof BidPlaced>;

/** A bid in a product's public list. */
export const ProductBid = Type.Object({
  bid_id: Type.Integer(),
  auction_id: Type.String(),
  amount: Type.Number(),
  status: WireBidStatus,
  state: BidStatus,
  timestamp: Type.String(),
  bidder: Type.String({ description: 'Masked (at most a third shown: r***k, a***) except for the admin who owns the auction' }),
  buy_now: Type.Optional(Type.Boolean({ description: 'Bought at the buy-now price' })),
});
export type ProductBid = Static<typeof ProductBid>;

export const ProductKeyQuery = Type.Object({
  product_key: IdRef('product_key', 'product_key is required'),
});

/** `GET /bids?product_key=`: one page, newest first; the next page is `before=` the last `bid_id`. */
export const ProductBidsQuery = Type.Object({
  product_key: IdRef('product_key', 'product_key is required'),
  before: Type.Optional(BeforeId('a bid id')),
  limit: Type.Optional(PageLimit()),
});

export const HighestBid = Type.Object({ highest_bid: Type.Number() });

export const TimeLeft = Type.Object({
  product_key: Type.String(),
  auction_id: Type.String(),
  valid_until: Type.String(),
  seconds_left: Type.Integer(),
  ended: Type.Boolean(),
});

export const BuyNowBody = Type.Object({
  product_id: IdRef('product_id', 'product_id is required'),
});
export type BuyNowBody = Static<typeof BuyNowBody>;

export const BoughtNow = Type.Object({
  message: Type.String(),
  bid: OwnBid,
  wallet_balance: Type.Number(),
  version: Type.Integer(),
});
export type BoughtNow = Static<typeof BoughtNow>;

export const RollbackBody = Type.Object({
  bid_id: Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ pattern: '^[0-9]{1,15}$' })], { [X_MISSING]: 'bid_id is required' }),
  username: Type.Optional(CallerRef),
  user_id: Type.Optional(CallerRef),
});
export type RollbackBody = Static<typeof RollbackBody>;

export const RolledBack = Type.Object({ message: Type.String(), wallet_balance: Type.Number(), highest_bid: Type.Number() });
export type RolledBack = Static<typeof RolledBack>;
