/**
 * The user dashboard's numbers, exactly as DESIGN §7 defines them, as pure functions of what the
 * server returned and the server-corrected `now` (ms).
 */
import { ENDING_SOON_SECONDS, type Auction, type Transaction, type UserBid } from '@auction/shared';
import { balanceFromLedger, isCredit, transactionDescription, transactionTypeLabel, walletStats } from '../wallet';

export const RECENT_COUNT = 5;

export interface DashboardStats {
  activeAuctions: number;
  endingSoon: number;
  myBids: number;
  /** Rupees. */
  totalSpent: number;
  registeredAuctions: number;
}

type AuctionTiming = Pick<Auction, 'valid_until' | 'status'>;

/** Milliseconds until the end; NaN for an unreadable date. */
function msLeft(auction: AuctionTiming, now: number): number {
  return Date.parse(auction.valid_until) - now;
}

/** Ended once its end has passed, or as soon as the server says so (settled early). */
export function isEnded(auction: AuctionTiming, now: number): boolean {
  if (auction.status !== 'active') return true;
  const left = msLeft(auction, now);
  return !(left > 0);
}

/** Not ended, and ending in under 24 hours (spec §9). */
export function isEndingSoon(auction: AuctionTiming, now: number): boolean {
  return !isEnded(auction, now) && msLeft(auction, now) < ENDING_SOON_SECONDS * 1000;
}

// Every status but `failed` is a bid that was accepted; an unknown status reads as failed (spec §4).
const ACCEPTED: ReadonlySet<string> = new Set(['success', 'outbid', 'rolledback', 'won']);

export function countMyBids(bids: readonly Pick<UserBid, 'status'>[]): number {
  return bids.filter((b) => ACCEPTED.has(b.status)).length;
}

/** Σ bid − Σ refund: the money now held by leading bids or paid for won ones (the Wallet page's own rule). */
export function totalSpent(transactions: readonly Pick<Transaction, 'type' | 'amount'>[]): number {
  return walletStats(transactions).totalSpent;
}

/** Σ topup + Σ refund − Σ bid: the balance when the balance call fails (DESIGN §7). */
export const balanceFromTransactions = balanceFromLedger;

export function dashboardStats(input: {
  auctions: readonly Pick<Auction, 'valid_until' | 'status' | 'registered'>[];
  bids: readonly Pick<UserBid, 'status'>[];
  transactions: readonly Pick<Transaction, 'type' | 'amount'>[];
  now: number;
}): DashboardStats {
  const { auctions, bids, transactions, now } = input;
  return {
    activeAuctions: auctions.filter((a) => !isEnded(a, now)).length,
    endingSoon: auctions.filter((a) => isEndingSoon(a, now)).length,
    myBids: countMyBids(bids),
    totalSpent: totalSpent(transactions),
    registeredAuctions: auctions.filter((a) => a.registered).length,
  };
}

export interface TransactionView {
  label: string;
  description: string;
  /** `+₹1,000` / `-₹500`. */
  signed: 'plus' | 'minus';
}

/** How a ledger row reads, with the Wallet page's rules: a bid takes money (minus, red), a top-up or refund adds it (plus, green). */
export function describeTransaction(t: Pick<Transaction, 'type' | 'meta'>): TransactionView {
  const { text, productId } = transactionDescription(t);
  const description = productId && !text.includes(productId) ? `${text} · ${productId}` : text;
  return { label: transactionTypeLabel(t.type).label, description, signed: isCredit(t.type) ? 'plus' : 'minus' };
}
