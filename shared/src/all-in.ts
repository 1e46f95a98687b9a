/**
 * What a buyer pays in all for a lot won at a hammer price: the price, the buyer's
 * premium on it, GST on the premium and GST on the lot, each in paise rounded half up, per lot. With
 * a premium of 0 and GST of 0 it is the price, as the spec has it.
 */

/** The terms an all-in price is computed under. */
export interface AllInTerms {
  /** The auction's buyer's premium in basis points (hundredths of a percent: 12.5 % is 1250), 0–5000. */
  premiumBp: number;
  /** GST on the premium, in percent (PREMIUM_GST_PCT, 18 by default). */
  premiumGstPct: number;
  /** GST on the lot's hammer price, in percent: 0, 5, 12, 18 or 28. */
  lotGstPct: number;
}

export interface AllIn {
  price: number;
  premium: number;
  premiumGst: number;
  lotGst: number;
  total: number;
}

/** The rates of GST a lot may carry. */
export const LOT_GST_RATES = [0, 5, 12, 18, 28] as const;

/** round(a × b / c), half up, for non-negative integers (exact while a × b stays under 2^52). */
export function mulDivHalfUp(a: number, b: number, c: number): number {
  return Math.floor((2 * a * b + c) / (2 * c));
}

/** The all-in price of a lot won at `price` paise. */
export function allIn(price: number, t: AllInTerms): AllIn {
  const premium = mulDivHalfUp(price, t.premiumBp, 10_000);
  const premiumGst = mulDivHalfUp(premium, t.premiumGstPct, 100);
  const lotGst = mulDivHalfUp(price, t.lotGstPct, 100);
  return { price, premium, premiumGst, lotGst, total: price + premium + premiumGst + lotGst };
}

/**
 * The highest price whose all-in price fits in `budget` paise (0 when none does): what a maximum is
 * lowered to when its bidder's wallet can no longer hold all of it. all-in is non-decreasing in the
 * price, so the estimate from the rates is corrected by a few steps of one paisa.
 */
export function maxPriceWithin(budget: number, t: AllInTerms): number {
  if (budget <= 0) return 0;
  const rate = 1 + (t.premiumBp / 10_000) * (1 + t.premiumGstPct / 100) + t.lotGstPct / 100;
  let price = Math.max(0, Math.floor(budget / rate));
  while (price > 0 && allIn(price, t).total > budget) price -= 1;
  while (allIn(price + 1, t).total <= budget) price += 1;
  return price;
}

/** Terms as the API gives them: the premium in percent (at most 2 decimals), GST in percent. */
export const premiumBpOf = (pct: number): number => Math.round(pct * 100);
