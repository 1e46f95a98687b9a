/**
 * The user dashboard's numbers, exactly as DESIGN §7 defines them, as pure functions of what the
 * server returned and the server-corrected `now` (ms).
 */
import { ENDING_SOON_SECONDS, toPaise, toRupees, type Auction, type Transaction, type UserBid } from '@auction/shared';

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

/** Σ bid − Σ refund: the money now held by leading bids or paid for won ones. Summed in paise. */
export function totalSpent(transactions: readonly Pick<Transaction, 'type' | 'amount'>[]): number {
  let paise = 0;
  for (const t of transactions) {
    if (t.type === 'bid') paise += toPaise(t.amount);
    else if (t.type === 'refund') paise -= toPaise(t.amount);
  }
  return toRupees(paise);
}

/** Σ topup + Σ refund − Σ bid: the balance when the balance call fails (DESIGN §7). */
export function balanceFromTransactions(transactions: readonly Pick<Transaction, 'type' | 'amount'>[]): number {
  let paise = 0;
  for (const t of transactions) paise += (t.type === 'bid' ? -1 : 1) * toPaise(t.amount);
  return toRupees(paise);
}

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

const TYPE_LABEL: Record<Transaction['type'], string> = { topup: 'Top-up', bid: 'Bid', refund: 'Refund' };
const DEFAULT_NOTE: Record<Transaction['type'], string> = { topup: 'Wallet top-up', bid: 'Bid placed', refund: 'Bid refund' };

/** How a ledger row reads: a bid takes money (minus, red), a top-up or refund adds it (plus, green). */
export function describeTransaction(t: Pick<Transaction, 'type' | 'meta'>): TransactionView {
  const type = t.type in TYPE_LABEL ? t.type : 'bid';
  const note = t.meta?.notes?.trim() || DEFAULT_NOTE[type];
  const productId = t.meta?.product_id;
  const description = productId && !note.includes(productId) ? `${note} · ${productId}` : note;
  return { label: TYPE_LABEL[type], description, signed: type === 'bid' ? 'minus' : 'plus' };
}
