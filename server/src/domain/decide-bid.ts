/**
 * The money rules of one bid as a pure function (DESIGN §1, §4): given the few rows that matter,
 * accept (and say whose hold is released) or refuse with a code and the words the bidder reads.
 */
import { formatRupees, LIMITS, toRupees, type ErrorCode } from '@auction/shared';

export interface BidState {
  bidderId: number;
  bidderActive: boolean;
  /** Paise. */
  balance: number;
  registered: boolean;
  productSold: boolean;
  auctionSettled: boolean;
  auctionEndsAt: number;
  leader: { bidId: number; userId: number; amount: number } | null;
}

export type BidDecision =
  | { accept: true; release: BidState['leader'] }
  | { accept: false; code: ErrorCode; message: string };

export const MIN_INCREMENT = LIMITS.minIncrementRupees * 100;

const refuse = (code: ErrorCode, message: string): BidDecision => ({ accept: false, code, message });

export function decideBid(s: BidState, amount: number, now: number): BidDecision {
  if (!s.bidderActive) return refuse('ACCOUNT_INACTIVE', 'This account has been deactivated');
  if (s.productSold) return refuse('PRODUCT_SOLD', 'This product has already been sold');
  if (s.auctionSettled) return refuse('AUCTION_SETTLED', 'This auction has been settled');
  if (now >= s.auctionEndsAt) return refuse('AUCTION_ENDED', 'This auction has ended');
  if (!s.registered) return refuse('NOT_REGISTERED', 'Register for this auction before bidding');
  const highest = s.leader?.amount ?? 0;
  if (amount <= highest) {
    return refuse('BID_TOO_LOW', `Bid must be higher than current highest bid of ${formatRupees(toRupees(highest))}`);
  }
  if (amount < highest + MIN_INCREMENT) {
    return refuse('BID_TOO_LOW', `Bid must be at least ${formatRupees(toRupees(highest + MIN_INCREMENT))}: ${formatRupees(LIMITS.minIncrementRupees)} more than the current highest bid of ${formatRupees(toRupees(highest))}`);
  }
  // Raising one's own lead may use the money that lead already holds.
  const ownHold = s.leader?.userId === s.bidderId ? s.leader.amount : 0;
  if (s.balance + ownHold < amount) {
    return refuse('INSUFFICIENT_FUNDS', `Insufficient wallet balance: ${formatRupees(toRupees(s.balance + ownHold))} available for this bid`);
  }
  return { accept: true, release: s.leader };
}
