/** Edge conversions: what a schema cannot say (2 decimals, date-times in TIMEZONE) becomes a 400 here. */
import { hasAtMostTwoDecimals, parseDateTime, toPaise } from '@auction/shared';
import type { LotHistoryKey } from '../db/index.js';
import type { Caller } from '../domain/accounts.js';
import { namesCaller } from '../domain/accounts.js';
import { AppError } from '../errors.js';

/** Rupees from the request → integer paise; at most 2 decimals. */
export function paise(rupees: number, field: string, message = `${field} must have at most 2 decimals`): number {
  // Exactly 2 decimals at most (10.000000001 is refused, not read as ₹10); a positive amount below a
  // paisa (1e-9) never becomes 0 paise.
  if (!hasAtMostTwoDecimals(rupees) || (rupees > 0 && toPaise(rupees) === 0)) throw new AppError('VALIDATION', message, field);
  return toPaise(rupees);
}

export function dateTime(text: string, field: string, timeZone: string): number {
  const ms = parseDateTime(text, timeZone);
  if (ms === null) throw new AppError('VALIDATION', `${field} must be a date-time such as 2026-11-24T07:45`, field);
  return ms;
}

/** Body fields that name a user must name the caller (else 403 FORBIDDEN). */
export function assertNamesCaller(caller: Caller, ...names: (string | number | undefined)[]) {
  if (!namesCaller(caller, ...names)) throw new AppError('FORBIDDEN', 'The request names another account');
}

/** The caller of a guarded route (the guard has set it). */
export function callerOf(req: { caller: Caller | null }): Caller {
  if (!req.caller) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return req.caller;
}

/**
 * Whether the caller (null: a visitor with no token) may read a product by its id: a product in an
 * auction (open, ended or sold) is public, so a shared lot link opens for anyone; one in no auction is
 * its admin's draft (never listed, or unsold and back with its seller), which anyone else is told does
 * not exist.
 */
export function productReadableBy(product: { auctionId: string | null; createdBy: number }, caller: Caller | null): boolean {
  return product.auctionId !== null || (caller?.role === 'admin' && caller.id === product.createdBy);
}

/** The product, or 404 NOT_FOUND when there is none or the caller may not read it (`productReadableBy`). */
export function readableProduct<P extends { auctionId: string | null; createdBy: number }>(product: P | null, caller: Caller | null): P {
  if (!product || !productReadableBy(product, caller)) throw new AppError('NOT_FOUND', 'Product not found');
  return product;
}

/** A page's `limit` (digits, checked by the schema), or the default. */
export function pageLimit(text: string | undefined, fallback: number): number {
  return text === undefined ? fallback : Number(text);
}

/** A page's `before` id (digits, checked by the schema), or null. */
export function beforeId(text: string | undefined): number | null {
  return text === undefined ? null : Number(text);
}

/**
 * Where a lot's history goes on from: the `next_before` of the page before, `amount.time.auto.bidId`
 * (presentLotHistoryCursor). The schema checks its form; a bid id no row can have is refused here.
 */
export function lotHistoryKey(text: string | undefined): LotHistoryKey | null {
  if (text === undefined) return null;
  const [amount, createdAt, auto, bidId] = text.split('.').map(Number) as [number, number, number, number];
  if (bidId > 2_147_483_647) throw new AppError('VALIDATION', 'before must be the next_before of a page of this history', 'before');
  return { amount, createdAt, auto: auto === 1, bidId };
}
