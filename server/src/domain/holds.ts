/** What a lead holds (docs/money.md#all-in-prices): the rule every bid, cancel and settlement applies to a wallet. */
import { allIn, maxPriceWithin, type AllInTerms } from '@auction/shared';
import type { AuctionRow, Hold, ProductRow } from '../db/index.js';

/** What a leading bid holds from its bidder's wallet, as taken when it began to lead: release exactly that. */
export const heldBy = (h: Pick<Hold, 'held'>): number => h.held;

/** A bid's top: its maximum for a proxy, its amount for a plain bid. */
export const topOf = (h: Pick<Hold, 'amount' | 'maxAmount'>): number => h.maxAmount ?? h.amount;

/** The lot's all-in terms: its auction's premium and the GST on it, the lot's own GST. */
export const termsOf = (
  auction: Pick<AuctionRow, 'buyerPremiumBp' | 'premiumGstPct'>, product: Pick<ProductRow, 'gstPct'>,
): AllInTerms => ({ premiumBp: auction.buyerPremiumBp, premiumGstPct: auction.premiumGstPct, lotGstPct: product.gstPct });

/** What a lead with this top holds: its all-in price, so that a win is payable in full at the hammer. */
export const holdFor = (top: number, terms: AllInTerms): number => allIn(top, terms).total;

/** The highest top a wallet of `balance` paise can hold on these terms. */
export const topWithin = (balance: number, terms: AllInTerms): number => maxPriceWithin(balance, terms);
