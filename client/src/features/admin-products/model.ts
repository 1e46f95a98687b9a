/** The product form's rules and messages: the required fields, the lot's prices and its photos. */
import { CATALOGUE_MESSAGES, formatRupees, hasAtMostTwoDecimals, LIMITS, type Product, type UpdateProductBody } from '@auction/shared';
import { ApiError } from '../../lib/api-client';
export { mediaSrc } from '../../lib/media';

export interface ProductDraft {
  id: string;
  name: string;
  description: string;
}

export type ProductCheck =
  | { ok: true; value: ProductDraft }
  | { ok: false; error: string };

/** Adding needs id, name and description ('Please fill all fields'); editing needs name and description ('Fill required fields'). */
export function validateProduct(draft: ProductDraft, mode: 'add' | 'edit'): ProductCheck {
  const value = { id: draft.id.trim(), name: draft.name.trim(), description: draft.description.trim() };
  if (mode === 'add' && (!value.id || !value.name || !value.description)) return { ok: false, error: CATALOGUE_MESSAGES.productCreate };
  if (mode === 'edit' && (!value.name || !value.description)) return { ok: false, error: CATALOGUE_MESSAGES.productEdit };
  return { ok: true, value };
}

/** The product form's prices, as typed (rupees; blank: none, or ₹0 for the starting price). */
export interface PriceDraft {
  starting: string;
  reserve: string;
  buyNow: string;
}

export type PriceErrors = Partial<Record<keyof PriceDraft, string>>;

export interface Prices {
  /** Blank: ₹0, the server's default. */
  starting: number | null;
  reserve: number | null;
  buyNow: number | null;
}

export type PriceCheck = { ok: true; value: Prices } | { ok: false; errors: PriceErrors };

const PRICE_LABELS: Record<keyof PriceDraft, string> = { starting: 'Starting price', reserve: 'Reserve price', buyNow: 'Buy-now price' };

/** An amount as typed: blank is null; "₹1,500.50" reads as 1500.5; NaN when it is no amount in rupees from 0 to the limit with at most 2 decimals. */
function readPrice(text: string): number | null {
  const t = text.trim().replace(/^₹\s*/, '').replace(/,/g, '');
  if (t === '') return null;
  if (!/^\d+(\.\d+)?$/.test(t)) return Number.NaN;
  const n = Number(t);
  return Number.isFinite(n) && hasAtMostTwoDecimals(n) && n <= LIMITS.bidMaxRupees ? n : Number.NaN;
}

/**
 * The server's rules for a lot's prices (docs/bidding.md#lot-pricing), in its words with the fields'
 * names: each an amount in rupees; the reserve at least the starting price; the buy-now price more than
 * the starting price and at least the reserve.
 */
export function checkPrices(draft: PriceDraft): PriceCheck {
  const errors: PriceErrors = {};
  const value = { starting: readPrice(draft.starting), reserve: readPrice(draft.reserve), buyNow: readPrice(draft.buyNow) };
  for (const key of ['starting', 'reserve', 'buyNow'] as const) {
    if (Number.isNaN(value[key])) errors[key] = `${PRICE_LABELS[key]} must be an amount in rupees from 0 to ${LIMITS.bidMaxRupees}, with at most 2 decimals`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const starting = value.starting ?? 0;
  const { reserve, buyNow } = value;
  if (reserve !== null && reserve < starting) errors.reserve = `Reserve price must be at least the starting price (${formatRupees(starting)})`;
  if (buyNow !== null && buyNow <= starting) errors.buyNow = `Buy-now price must be more than the starting price (${formatRupees(starting)})`;
  else if (buyNow !== null && reserve !== null && buyNow < reserve) errors.buyNow = `Buy-now price must be at least the reserve price (${formatRupees(reserve)})`;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value };
}

/** A product has a leading bid: its prices can no longer change (the server refuses, PRODUCT_HAS_BIDS). */
export function pricesFixed(p: Pick<Product, 'highest_bid' | 'status'>): boolean {
  return p.highest_bid > 0 && p.status !== 'sold';
}

type PriceFields = Pick<UpdateProductBody, 'starting_price' | 'reserve_price' | 'buy_now_price'>;

/**
 * The prices a save sends. Adding: the ones given. Editing: the ones changed (a price left out keeps
 * its value; null removes a reserve or a buy-now price), none while they are fixed.
 */
export function priceBody(prices: Prices, product?: Pick<Product, 'starting_price' | 'reserve_price' | 'buy_now_price' | 'highest_bid' | 'status'>): PriceFields {
  if (!product) {
    return {
      ...(prices.starting === null ? {} : { starting_price: prices.starting }),
      ...(prices.reserve === null ? {} : { reserve_price: prices.reserve }),
      ...(prices.buyNow === null ? {} : { buy_now_price: prices.buyNow }),
    };
  }
  if (pricesFixed(product)) return {};
  const starting = prices.starting ?? 0;
  return {
    ...(starting === product.starting_price ? {} : { starting_price: starting }),
    ...(prices.reserve === (product.reserve_price ?? null) ? {} : { reserve_price: prices.reserve }),
    ...(prices.buyNow === product.buy_now_price ? {} : { buy_now_price: prices.buyNow }),
  };
}

// ---- photos (docs/photos.md) --------------------------------------------------------------------

/** What the server takes: recognised by the bytes there; here the browser's type is a first check. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The server's default MEDIA_MAX_MB, until GET /admin/settings says what is in force; a larger file is refused before it is sent. */
export const PHOTO_MAX_MB = 8;
export const photoLimits = (maxMb = PHOTO_MAX_MB) => `Up to ${LIMITS.imagesPerProduct} photos, JPEG, PNG or WebP, ${maxMb} MB each`;
export const PHOTO_LIMITS = photoLimits();
export const PHOTOS_SOLD = 'This product has been sold: its photos can no longer change';
// The server's own sentences for the same refusals, for when its answer carries none.
export const NOT_AN_IMAGE = 'Not an image: JPEG, PNG or WebP only';
export const photoTooBig = (maxMb = PHOTO_MAX_MB) => `The photo must not exceed ${maxMb} MB`;
export const PHOTO_TOO_BIG = photoTooBig();
export const TOO_MANY_PHOTOS = `A product may have at most ${LIMITS.imagesPerProduct} photos: delete one to add another`;

/** Why a chosen file is not sent (a type the browser knows is not a photo, or too big), or null to send it. */
export function checkPhoto(file: Pick<File, 'type' | 'size'>, maxMb = PHOTO_MAX_MB): string | null {
  // An empty type (the browser does not know it) goes to the server, which reads the bytes.
  if (file.type && !(PHOTO_TYPES as readonly string[]).includes(file.type)) return NOT_AN_IMAGE;
  if (file.size > maxMb * 1024 * 1024) return photoTooBig(maxMb);
  return null;
}

/** A refused upload in the server's words; its kind of sentence when the answer had none (a proxy's 413 page, a lost connection). */
export function uploadErrorText(err: unknown, maxMb = PHOTO_MAX_MB): string {
  if (!(err instanceof ApiError)) return 'Upload failed';
  if (err.serverError) return err.serverError;
  if (err.status === 413) return photoTooBig(maxMb);
  if (err.status === 400 || err.status === 415) return NOT_AN_IMAGE;
  if (err.code === 'PRODUCT_SOLD') return PHOTOS_SOLD;
  if (err.code === 'TOO_MANY_IMAGES') return TOO_MANY_PHOTOS;
  if (err.code === 'NETWORK') return 'Upload failed: check the connection and try again';
  return 'Upload failed';
}

/** `list` with the item at `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

// ---- products in bulk (CSV) ----------------------------------------------------------------------

/** The server lists at most this many problems of a refused import. */
export const IMPORT_PROBLEMS_SHOWN = 100;

export const importedText = (n: number) => `Imported ${n} ${n === 1 ? 'product' : 'products'}`;

/** What a refused import says above its table of problems. */
export function problemsText(n: number): string {
  const found = n >= IMPORT_PROBLEMS_SHOWN
    ? `The file has at least ${IMPORT_PROBLEMS_SHOWN} problems (the first ${IMPORT_PROBLEMS_SHOWN} are listed)`
    : `The file has ${n} ${n === 1 ? 'problem' : 'problems'}`;
  return `${found}. Nothing was imported: fix ${n === 1 ? 'it' : 'them'} and import the file again.`;
}
