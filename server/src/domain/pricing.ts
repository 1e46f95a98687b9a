/** A lot's pricing rules (docs/bidding.md#lot-pricing, docs/money.md#all-in-prices): its prices and its GST, checked together. */
import { formatRupees, toRupees } from '@auction/shared';
import type { ProductRow } from '../db/index.js';
import { refuse, type Result } from '../errors.js';

/** A lot's prices in paise (docs/bidding.md#lot-pricing); on an edit, a field left out keeps its value. */
export interface PricingInput {
  startingPrice?: number;
  reservePrice?: number | null;
  buyNowPrice?: number | null;
  /** GST on the hammer price, in percent (docs/money.md#all-in-prices). */
  gstPct?: number;
}

export type Pricing = Pick<ProductRow, 'startingPrice' | 'reservePrice' | 'buyNowPrice' | 'gstPct'>;

/** The prices after an edit, or why they cannot be: reserve ≥ starting, buy-now > starting and ≥ reserve. */
export function checkPricing(current: Pricing, input: PricingInput): Result<{ pricing: Pricing }> {
  const pricing: Pricing = {
    startingPrice: input.startingPrice ?? current.startingPrice,
    reservePrice: input.reservePrice === undefined ? current.reservePrice : input.reservePrice,
    buyNowPrice: input.buyNowPrice === undefined ? current.buyNowPrice : input.buyNowPrice,
    gstPct: input.gstPct ?? current.gstPct,
  };
  const { startingPrice, reservePrice, buyNowPrice } = pricing;
  const rupees = (paise: number) => formatRupees(toRupees(paise));
  if (reservePrice !== null && reservePrice < startingPrice) {
    return refuse('VALIDATION', `reserve_price must be at least the starting price (${rupees(startingPrice)})`, 'reserve_price');
  }
  if (buyNowPrice !== null && buyNowPrice <= startingPrice) {
    return refuse('VALIDATION', `buy_now_price must be more than the starting price (${rupees(startingPrice)})`, 'buy_now_price');
  }
  if (buyNowPrice !== null && reservePrice !== null && buyNowPrice < reservePrice) {
    return refuse('VALIDATION', `buy_now_price must be at least the reserve price (${rupees(reservePrice)})`, 'buy_now_price');
  }
  return { ok: true, pricing };
}

export const NO_PRICING: Pricing = { startingPrice: 0, reservePrice: null, buyNowPrice: null, gstPct: 0 };
