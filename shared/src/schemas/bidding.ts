import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { formatRupees, toPaise, toRupees } from '../money.js';
import { CallerRef, IdRef, Rupees, X_MISSING } from './common.js';

export const BID_MESSAGES = { invalid: 'Please enter a valid bid amount' } as const;

/** The smallest bid accepted over `highest` (rupees): the highest plus LIMITS.minIncrementRupees, exact to the paisa. */
export function minimumBid(highest: number): number {
  return toRupees(toPaise(highest) + toPaise(LIMITS.minIncrementRupees));
}

/**
 * Why a bid of `amount` over the current `highest` (both rupees) is too low, in the words the bidder
 * reads (BID_TOO_LOW); null when it is high enough. The server's decision (server/src/domain/decide-bid.ts)
 * and the bid dialog's check both use it, so they agree on the rule and its wording (docs/money.md).
 */
export function bidTooLow(amount: number, highest: number): string | null {
  // Compared in integer paise, as the server keeps money.
  const [bid, top] = [toPaise(amount), toPaise(highest)];
  if (bid <= top) return `Bid must be higher than current highest bid of ${formatRupees(highest)}`;
  const min = top + toPaise(LIMITS.minIncrementRupees);
  if (bid < min) {
    return `Bid must be at least ${formatRupees(toRupees(min))}: ${formatRupees(LIMITS.minIncrementRupees)} more than the current highest bid of ${formatRupees(highest)}`;
  }
  return null;
}

export const BidStatus = Type.Union([
  Type.Literal('success'), Type.Literal('outbid'), Type.Literal('failed'), Type.Literal('rolledback'), Type.Literal('won'),
]);
export type BidStatus = Static<typeof BidStatus>;

/** A product's id or, as existing clients send it, its name. */
const ProductRef = Type.String({ minLength: 1, maxLength: Math.max(LIMITS.idMax, LIMITS.nameMax), pattern: '\\S', [X_MISSING]: BID_MESSAGES.invalid });

export const PlaceBidBody = Type.Object({
  product_name: Type.Optional(ProductRef),
  product_id: Type.Optional(ProductRef),
  bid_amount: Rupees({ exclusiveMinimum: 0, maximum: LIMITS.bidMaxRupees, message: BID_MESSAGES.invalid, missing: BID_MESSAGES.invalid }),
  user_id: Type.Optional(CallerRef),
  username: Type.Optional(CallerRef),
});
export type PlaceBidBody = Static<typeof PlaceBidBody>;

/** A bid in the bidder's own lists. */
export const UserBid = Type.Object({
  bid_id: Type.Integer(),
  product_id: Type.String(),
  product_name: Type.String(),
  auction_id: Type.String(),
  auction_name: Type.String(),
  amount: Type.Number(),
  timestamp: Type.String(),
  status: BidStatus,
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why a bid failed or was released' }),
});
export type UserBid = Static<typeof UserBid>;

export const BidPlaced = Type.Object({
  message: Type.String(),
  bid: UserBid,
  highest_bid: Type.Number(),
  wallet_balance: Type.Number(),
  /** The product's version after this bid: live events about it carry this version or a newer one (docs/live-protocol.md#versions-and-applying-events). */
  version: Type.Integer(),
});
export type BidPlaced = Static<typeof BidPlaced>;

/** A bid in a product's public list. */
export const ProductBid = Type.Object({
  bid_id: Type.Integer(),
  auction_id: Type.String(),
  amount: Type.Number(),
  status: BidStatus,
  timestamp: Type.String(),
  bidder: Type.String({ description: 'Masked (at most a third shown: r***k, a***) except for the admin who owns the auction' }),
});
export type ProductBid = Static<typeof ProductBid>;

export const ProductKeyQuery = Type.Object({
  product_key: IdRef('product_key', 'product_key is required'),
});

export const HighestBid = Type.Object({ highest_bid: Type.Number() });

export const TimeLeft = Type.Object({
  product_key: Type.String(),
  auction_id: Type.String(),
  valid_until: Type.String(),
  seconds_left: Type.Integer(),
  ended: Type.Boolean(),
});

export const RollbackBody = Type.Object({
  bid_id: Type.Union([Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), Type.String({ pattern: '^[0-9]{1,15}$' })], { [X_MISSING]: 'bid_id is required' }),
  username: Type.Optional(CallerRef),
  user_id: Type.Optional(CallerRef),
});
export type RollbackBody = Static<typeof RollbackBody>;

export const RolledBack = Type.Object({ message: Type.String(), wallet_balance: Type.Number(), highest_bid: Type.Number() });
export type RolledBack = Static<typeof RolledBack>;
