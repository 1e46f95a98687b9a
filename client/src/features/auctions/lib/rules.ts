/** The browse page's pure rules: search and filter, the bid amount check, when bidding is open. */
import { BID_MESSAGES, LIMITS, bidTooLow, hasAtMostTwoDecimals, type Auction, type Product } from '@auction/shared';

/** Search: name or id, case-insensitive, contains; `registeredOnly` is the `?registered=1` flag. */
export function filterAuctions(auctions: readonly Auction[], query: string, registeredOnly: boolean): Auction[] {
  const q = query.trim().toLowerCase();
  return auctions.filter((a) =>
    (!registeredOnly || a.registered) && (q === '' || a.name.toLowerCase().includes(q) || a.id.toLowerCase().includes(q)));
}

export type BidCheck = { ok: true; amount: number } | { ok: false; error: string };

/** The bid rules, worded as the server words them: the too-low rule is the server's own (`bidTooLow`, shared; docs/money.md). */
export function checkBid(raw: string, highest: number): BidCheck {
  const text = raw.trim();
  const amount = Number(text);
  if (text === '' || !Number.isFinite(amount) || amount <= 0 || !hasAtMostTwoDecimals(amount) || amount > LIMITS.bidMaxRupees) {
    return { ok: false, error: BID_MESSAGES.invalid };
  }
  const tooLow = bidTooLow(amount, highest);
  return tooLow ? { ok: false, error: tooLow } : { ok: true, amount };
}

/** An auction is over once the server says so or the clock reaches its end. */
export function isEnded(auction: Pick<Auction, 'status'>, secondsLeft: number): boolean {
  return auction.status !== 'active' || secondsLeft <= 0;
}

export interface BidAction {
  label: 'Place Bid' | 'Register to bid';
  disabled: boolean;
  /** Why the button is disabled, for its tooltip and screen readers. */
  reason?: string;
}

/** Place Bid is disabled once sold or ended; an unregistered user sees Register to bid. */
export function bidAction(product: Pick<Product, 'status'>, registered: boolean, ended: boolean): BidAction {
  const label = registered ? 'Place Bid' : 'Register to bid';
  if (product.status === 'sold') return { label, disabled: true, reason: 'This product has been sold' };
  if (ended) return { label, disabled: true, reason: 'This auction has ended' };
  return { label, disabled: false };
}
