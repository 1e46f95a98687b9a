/**
 * The user dashboard's numbers, as docs/money.md ("The numbers the screens show") defines them, as
 * pure functions of what the server returned: Active Auctions and Ending Soon are the catalogue's own
 * counts, the bids' figures read each bid's full status (`state`). My Bids counts the bids that did not
 * fail, while the My Bids page's Total Bids counts every row: the card says how many failed bids it
 * leaves out, so the two figures read as one.
 */
import type { Auction, LedgerTotals, UserBid } from '@auction/shared';
import { balanceFromLedger, isCredit, transactionBadge, transactionDescription, walletStats } from '../../lib/account/wallet-model';

export const RECENT_COUNT = 5;
/** How many won lots the dashboard lists (the newest; My Bids has them all). */
export const WON_COUNT = 6;

export interface DashboardStats {
  activeAuctions: number;
  endingSoon: number;
  /** The bids that did not fail (the My Bids page's Total Bids, less `failedBids`). */
  myBids: number;
  /** Refused bids, which My Bids leaves out. */
  failedBids: number;
  /** Bids leading now: the Active Bids of the My Bids page. */
  activeBids: number;
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

/** The bids that did not fail (cancelled ones included): a refused bid never held money or led. */
export function countMyBids(bids: readonly Pick<UserBid, 'state'>[]): number {
  return bids.filter((b) => b.state !== 'failed').length;
}

/** Refused bids: the difference between My Bids here and Total Bids on the My Bids page. */
export function countFailedBids(bids: readonly Pick<UserBid, 'state'>[]): number {
  return bids.filter((b) => b.state === 'failed').length;
}

/** Bids leading now (`success`): the Active Bids of the My Bids page. */
export function countActiveBids(bids: readonly Pick<UserBid, 'state'>[]): number {
  return bids.filter((b) => b.state === 'success').length;
}

/** The lots the caller won (settled as the leader, or bought at the buy-now price), newest first as the list is. */
export function wonBids<B extends Pick<UserBid, 'state'>>(bids: readonly B[]): B[] {
  return bids.filter((b) => b.state === 'won');
}

/** What wins and buy-nows cost, from the whole ledger's totals (the Wallet page's own rule: payments only, not holds); 0 while unknown. */
export function totalSpent(totals: LedgerTotals | null): number {
  return totals === null ? 0 : walletStats(totals).totalSpent;
}

/** Σ topup + Σ refund − Σ bid: the balance when the balance call fails (docs/money.md). */
export const balanceFromTransactions = balanceFromLedger;

export function dashboardStats(input: {
  /** The catalogue's counts: auctions not ended, and those ending within 24 hours. */
  activeAuctions: number;
  endingSoon: number;
  /** How many auctions the caller registered for. */
  registeredAuctions: number;
  bids: readonly Pick<UserBid, 'state'>[];
  /** The whole ledger's totals (the server's), null while unknown. */
  totals: LedgerTotals | null;
}): DashboardStats {
  const { activeAuctions, endingSoon, registeredAuctions, bids, totals } = input;
  return {
    activeAuctions,
    endingSoon,
    myBids: countMyBids(bids),
    failedBids: countFailedBids(bids),
    activeBids: countActiveBids(bids),
    totalSpent: totalSpent(totals),
    registeredAuctions,
  };
}

export interface TransactionView {
  label: string;
  description: string;
  /** `+₹1,000` / `-₹500`. */
  signed: 'plus' | 'minus';
}

/** The product as the one line should add it: name and id, less what the notes already say. */
function productSuffix(text: string, productId: string | null, productName: string | null): string | null {
  if (!productId) return null;
  const id = text.includes(productId) ? null : productId;
  if (productName === null || text.includes(productName)) return id;
  return id ? `${productName} (${id})` : productName;
}

/** How a ledger row reads, with the Wallet page's rules: a bid takes money (minus, red), a top-up or refund adds it (plus, green). */
export function describeTransaction(t: Parameters<typeof transactionDescription>[0]): TransactionView {
  const { text, productId, productName } = transactionDescription(t);
  const product = productSuffix(text, productId, productName);
  const description = product ? `${text} · ${product}` : text;
  return { label: transactionBadge(t).label, description, signed: isCredit(t.type) ? 'plus' : 'minus' };
}
