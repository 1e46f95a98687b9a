import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { DateTimeText, ErrorBody, Id, IdParams, IdRef, PAGE_DEFAULT, PageLimit, Rupees, VisibleText, X_ERROR, X_MISSING } from './common.js';
import { BidStatus, WireBidStatus } from './bidding.js';
import { CategoryRef } from './categories.js';
import { CANCEL_POLICIES, INCREMENT_RULES, literalUnion, PRODUCT_STATUSES } from './enums.js';
import { FLAT_STEP, STEP_MAX, TIERS_MAX, type IncrementRule, type Steps } from '../bidding-rules.js';
import { toPaise } from '../money.js';
import { LOT_GST_RATES } from '../all-in.js';

/** The fixed sentences for missing catalogue fields (the admin forms show the same words). */
export const CATALOGUE_MESSAGES = {
  productCreate: 'Please fill all fields',
  productEdit: 'Fill required fields',
  auctionCreate: 'Please fill all fields and select at least one product',
  auctionEdit: 'Please fill all required fields',
  /** An edit that lists products must list at least one. */
  auctionProducts: 'Select at least one product',
} as const;

/** A name (one line) or a description (line breaks and tabs allowed) of visible text (see VisibleText). */
const text = (field: string, max: number, missing: string, multiline = false) =>
  Type.String({
    minLength: 1, maxLength: max, pattern: '\\S', [X_ERROR]: `${field} must be at most ${max} characters`, [X_MISSING]: missing,
    allOf: [VisibleText(field, { multiline, missing })],
  });

export const ProductStatus = literalUnion(PRODUCT_STATUSES);

/** A product photo: a WebP of at most 1,600 px and a 400 px thumbnail, served from /media (docs/photos.md). */
export const ProductImage = Type.Object({
  id: Type.Integer(),
  url: Type.String({ description: '/media/{name}.webp' }),
  thumb_url: Type.String(),
});
export type ProductImage = Static<typeof ProductImage>;

export const Product = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: ProductStatus,
  auction_id: Type.Union([Type.String(), Type.Null()]),
  highest_bid: Type.Number({ description: 'Rupees; 0 when there is no bid' }),
  bid_count: Type.Integer({ description: 'Bids in the current auction that did not fail' }),
  version: Type.Integer({ description: 'Bumped by every change of the highest bid or a sale; live events carry it, and clients apply an event only if its version is newer' }),
  starting_price: Type.Number({ description: 'Rupees: the first bid must be at least this (and at least ₹1)' }),
  min_next_bid: Type.Number({ description: 'Rupees: the lowest bid accepted now (docs/bidding.md)' }),
  // Optional in the type only (as `category`), for clients' fixtures written before them: the server always sends them.
  min_next_bid_all_in: Type.Optional(Type.Number({ description: 'Rupees: what a win at min_next_bid costs in all, premium and GST included (docs/money.md#all-in-prices). Always sent' })),
  gst_pct: Type.Optional(Type.Integer({ description: 'GST on the hammer price, in percent: 0, 5, 12, 18 or 28. Always sent' })),
  buyer_premium_pct: Type.Optional(Type.Number({ description: 'Its auction’s buyer’s premium, in percent (0 while in none). Always sent' })),
  premium_gst_pct: Type.Optional(Type.Integer({ description: 'GST on the premium, in percent. Always sent' })),
  reserve_met: Type.Union([Type.Boolean(), Type.Null()], { description: 'Null: no reserve; else whether the highest bid reaches the secret reserve' }),
  buy_now_price: Type.Union([Type.Number(), Type.Null()], { description: 'Rupees; null when there is none or it is no longer available' }),
  my_status: Type.Union([Type.Literal('leading'), Type.Literal('outbid'), Type.Literal('won'), Type.Literal('lost'), Type.Null()], { description: 'The calling bidder’s own state on this lot in its current auction; null when they never bid there (and for admins)' }),
  my_max: Type.Union([Type.Number(), Type.Null()], { description: 'The calling bidder’s maximum while they lead by proxy, else null' }),
  reserve_price: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'Rupees; only for the admin who owns the product' })),
  winner: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'The username of the bidder who won or bought a sold lot (null otherwise); only for the admin who owns the product' })),
  images: Type.Array(ProductImage, { description: 'Photos in order; the first is the cover' }),
  saved: Type.Optional(Type.Boolean({ description: 'For a bidder: whether they saved this lot' })),
  // Optional in the type only (as `category`), for clients' fixtures written before it: the server always sends it.
  lot_number: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'Its number in its auction ("Lot 12"; docs/catalogue.md); null while in none. Always sent' })),
  // Optional in the type only, for clients' fixtures written before categories: the server always sends it.
  category: Type.Optional(Type.Union([CategoryRef, Type.Null()], { description: 'Its category (docs/catalogue.md); null when in none. Always sent' })),
});
export type Product = Static<typeof Product>;

const price = (field: string) => Type.Union([
  Rupees({ minimum: 0, maximum: LIMITS.bidMaxRupees, message: `${field} must be an amount in rupees from 0 to ${LIMITS.bidMaxRupees}, with at most 2 decimals` }),
  Type.Null(),
]);

/** Optional lot pricing on create and edit (docs/bidding.md); frozen once the product has a bid. */
const Pricing = {
  starting_price: Type.Optional(Rupees({ minimum: 0, maximum: LIMITS.bidMaxRupees, message: `starting_price must be an amount in rupees from 0 to ${LIMITS.bidMaxRupees}, with at most 2 decimals` })),
  reserve_price: Type.Optional(price('reserve_price')),
  buy_now_price: Type.Optional(price('buy_now_price')),
  gst_pct: Type.Optional(Type.Union(LOT_GST_RATES.map((r) => Type.Literal(r)), {
    [X_ERROR]: 'gst_pct must be 0, 5, 12, 18 or 28', description: 'GST on the hammer price, in percent (default 0); frozen once the lot has a bid',
  })),
};

/** Optional on create and edit: a category's id (unknown: 400), or null for none; left out on an edit, it stays. */
const CategoryField = {
  category_id: Type.Optional(Type.Union([
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, [X_ERROR]: 'category_id must be a category id or null' }),
    Type.Null(),
  ], { [X_ERROR]: 'category_id must be a category id or null' })),
};

export const CreateProductBody = Type.Object({
  id: Id('id', CATALOGUE_MESSAGES.productCreate),
  name: text('name', LIMITS.nameMax, CATALOGUE_MESSAGES.productCreate),
  description: text('description', LIMITS.descriptionMax, CATALOGUE_MESSAGES.productCreate, true),
  ...Pricing,
  ...CategoryField,
});
export type CreateProductBody = Static<typeof CreateProductBody>;

export const UpdateProductBody = Type.Object({
  name: text('name', LIMITS.nameMax, CATALOGUE_MESSAGES.productEdit),
  description: text('description', LIMITS.descriptionMax, CATALOGUE_MESSAGES.productEdit, true),
  ...Pricing,
  ...CategoryField,
});
export type UpdateProductBody = Static<typeof UpdateProductBody>;

export const ProductSaved = Type.Object({ message: Type.String(), product: Product });
export type ProductSaved = Static<typeof ProductSaved>;

/** The columns of a products CSV file (import and export), in the order an export writes them. */
export const PRODUCT_CSV_COLUMNS = ['id', 'name', 'description', 'category', 'starting_price', 'reserve_price', 'buy_now_price'] as const;
/** At most this many products in one imported file. */
export const PRODUCT_IMPORT_MAX_ROWS = 10_000;
/** The largest file taken (a text/csv body or a multipart file): 5 MiB. */
export const PRODUCT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export const ProductsImported = Type.Object({ created: Type.Integer({ minimum: 0 }) });
export type ProductsImported = Static<typeof ProductsImported>;

/** A refused import: every problem found (the first 100), by line of the file (the header is line 1); a request that is no file at all has no `rows`. */
export const ProductImportProblems = Type.Object({
  ...ErrorBody.properties,
  rows: Type.Optional(Type.Array(Type.Object({ line: Type.Integer({ minimum: 1 }), field: Type.String(), message: Type.String() }))),
});
export type ProductImportProblems = Static<typeof ProductImportProblems>;

/** `flat`, `ladder` or `custom` (docs/bidding.md#increments); bidding-rules.ts has the steps. */
const IncrementRuleField = literalUnion(INCREMENT_RULES, { [X_ERROR]: 'increment_rule must be flat, ladder or custom' });

const stepRupees = (what: string) => Rupees({ minimum: 1, maximum: STEP_MAX / 100, message: `${what} must be an amount in rupees from 1 to ${STEP_MAX / 100}, with at most 2 decimals` });

/** Custom steps: ascending `below`, the last tier without one (checked beyond the schema by `tiersProblem`). */
const IncrementTiersField = Type.Array(Type.Object({
  below: Type.Optional(Type.Union([
    Rupees({ exclusiveMinimum: 0, maximum: LIMITS.bidMaxRupees, message: `increment_tiers: each "below" must be an amount in rupees above 0 and at most ${LIMITS.bidMaxRupees}, with at most 2 decimals` }),
    Type.Null(),
  ], { description: 'Rupees: this tier’s step applies while the highest bid is below this; left out (or null) on the last tier' })),
  step: stepRupees('increment_tiers: each step'),
}), { minItems: 1, maxItems: TIERS_MAX, [X_ERROR]: `increment_tiers must list 1 to ${TIERS_MAX} tiers, each { below, step } in rupees` });

const CancelPolicyField = literalUnion(CANCEL_POLICIES, {
  [X_ERROR]: 'cancel_policy must be until_end or strict',
  description: 'until_end: a leading bid may be cancelled until the end; strict: only within 10 minutes of being placed and never in the last hour (docs/bidding.md#cancelling-a-bid)',
});

/** Optional auction rules on create and edit (docs/bidding.md); defaults: flat ₹1, SOFT_CLOSE_S, MAX_EXTENSION_S, until_end. */
const Rules = {
  increment_rule: Type.Optional(IncrementRuleField),
  increment_amount: Type.Optional({ ...stepRupees('increment_amount'), description: 'Rupees: the step of the flat rule (default 1)' }),
  increment_tiers: Type.Optional({ ...IncrementTiersField, description: 'The custom rule’s tiers, ascending; required with increment_rule custom' }),
  cancel_policy: Type.Optional(CancelPolicyField),
  soft_close_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 3600, [X_ERROR]: 'soft_close_s must be a whole number of seconds from 0 to 3600' })),
  max_extension_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, [X_ERROR]: 'max_extension_s must be a whole number of seconds from 0 to 86400' })),
  buyer_premium_pct: Type.Optional(Type.Number({
    minimum: 0, maximum: 50, [X_ERROR]: 'buyer_premium_pct must be a percentage from 0 to 50 with at most 2 decimals',
    description: 'The buyer’s premium on the hammer price, in percent (default 0); GST on it at PREMIUM_GST_PCT (docs/money.md#all-in-prices). Frozen once a lot leads',
  })),
};

/** An auction's rules as every auction shape shows them. */
const RuleFields = {
  original_valid_until: Type.String({ description: 'ISO-8601 in TIMEZONE’s offset: the end the admin set; valid_until is the current end' }),
  increment_rule: IncrementRuleField,
  increment_amount: Type.Number({ description: 'Rupees: the flat rule’s step' }),
  increment_tiers: Type.Array(Type.Object({ below: Type.Union([Type.Number(), Type.Null()]), step: Type.Number() }), { description: 'Rupees: the custom rule’s tiers (empty unless set)' }),
  cancel_policy: CancelPolicyField,
  soft_close_s: Type.Integer(),
  max_extension_s: Type.Integer(),
  // Optional in the type only (as `category`), for clients' fixtures written before them: the server always sends them.
  buyer_premium_pct: Type.Optional(Type.Number({ description: 'The buyer’s premium on the hammer, in percent (docs/money.md#all-in-prices). Always sent' })),
  premium_gst_pct: Type.Optional(Type.Integer({ description: 'GST on the premium, in percent. Always sent' })),
  extended: Type.Boolean({ description: 'Whether soft close has moved the end' }),
};

/** An auction's steps in paise, from any auction shape (rupees): what `incrementStep` and `minNextBid` take. */
export function auctionSteps(a: { increment_rule: IncrementRule; increment_amount?: number; increment_tiers?: readonly { below: number | null; step: number }[] }): Steps {
  return {
    rule: a.increment_rule,
    amount: a.increment_amount === undefined ? FLAT_STEP : toPaise(a.increment_amount),
    tiers: (a.increment_tiers ?? []).map((t) => ({ below: t.below === null ? null : toPaise(t.below), step: toPaise(t.step) })),
  };
}

export const AuctionStatus = Type.Union([Type.Literal('active'), Type.Literal('ended'), Type.Literal('settled')]);
export type AuctionStatus = Static<typeof AuctionStatus>;

const ProductIds = (missing: string) => Type.Array(Id('product_ids item'), {
  minItems: 1, maxItems: 500, [X_ERROR]: 'product_ids may list at most 500 products', [X_MISSING]: missing,
});

export const CreateAuctionBody = Type.Object({
  id: Id('id', CATALOGUE_MESSAGES.auctionCreate),
  name: text('name', LIMITS.nameMax, CATALOGUE_MESSAGES.auctionCreate),
  valid_until: DateTimeText('valid_until', CATALOGUE_MESSAGES.auctionCreate),
  product_ids: ProductIds(CATALOGUE_MESSAGES.auctionCreate),
  ...Rules,
});
export type CreateAuctionBody = Static<typeof CreateAuctionBody>;

export const UpdateAuctionBody = Type.Object({
  name: text('name', LIMITS.nameMax, CATALOGUE_MESSAGES.auctionEdit),
  valid_until: DateTimeText('valid_until', CATALOGUE_MESSAGES.auctionEdit),
  product_ids: Type.Optional(ProductIds(CATALOGUE_MESSAGES.auctionProducts)),
  ...Rules,
});
export type UpdateAuctionBody = Static<typeof UpdateAuctionBody>;

/** An auction's cover on Browse: the renditions of one product photo (see ProductImage). */
export const AuctionCover = Type.Object({
  url: Type.String({ description: '/media/{name}.webp: at most 1,600 px on the longest side' }),
  thumb_url: Type.String({ description: '/media/{name}.webp: at most 400 px on the longest side' }),
});
export type AuctionCover = Static<typeof AuctionCover>;

/** An auction as a bidder sees it (`GET /auctions`). */
export const Auction = Type.Object({
  id: Type.String(),
  name: Type.String(),
  valid_until: Type.String({ description: 'ISO-8601 in TIMEZONE’s offset' }),
  product_ids: Type.Array(Type.String()),
  registrations: Type.Array(Type.Integer(), { description: 'At most the caller’s own id' }),
  registered: Type.Boolean(),
  product_count: Type.Integer(),
  status: AuctionStatus,
  ...RuleFields,
  cover: Type.Union([AuctionCover, Type.Null()], {
    description: 'The cover photo (the first by position) of the auction’s first product, in product order, that has a photo; null when none has one',
  }),
  highest_bid: Type.Number({ description: 'Rupees: the highest current price among the lots (a leading bid, or a winning one once sold); 0 when no lot has a bid' }),
  bid_count: Type.Integer({ description: 'The lots’ bids in this auction that did not fail (the sum of their bid_count)' }),
});
export type Auction = Static<typeof Auction>;

/** An auction as admins see it. */
export const AdminAuction = Type.Object({
  id: Type.String(),
  name: Type.String(),
  valid_until: Type.String(),
  product_ids: Type.Array(Type.String()),
  registrations: Type.Array(Type.Integer(), { description: 'Ids of the registered bidders' }),
  product_count: Type.Integer(),
  status: AuctionStatus,
  created_by: Type.Integer({ description: 'Id of the admin who created it (the only one who may change it)' }),
  created_at: Type.String(),
  settled_at: Type.Union([Type.String(), Type.Null()]),
  ...RuleFields,
  bidder_cancels: Type.Optional(Type.Array(Type.Object({
    user_id: Type.Integer(),
    username: Type.String(),
    cancels: Type.Integer({ description: 'Bids this bidder cancelled in this auction' }),
  }), { description: 'Only in GET /admin/auction/{id}, for the admin who created it: every bidder who bid in it, with how many bids they cancelled, most first' })),
});
export type AdminAuction = Static<typeof AdminAuction>;

export const AuctionSaved = Type.Object({ message: Type.String(), auction: AdminAuction });
export type AuctionSaved = Static<typeof AuctionSaved>;

export const Settled = Type.Object({
  message: Type.String(),
  sold: Type.Array(Type.Object({ product_id: Type.String(), amount: Type.Number() })),
  unsold: Type.Array(Type.Object({
    id: Type.String(),
    reason: Type.Union([Type.Literal('NO_BIDS'), Type.Literal('RESERVE_NOT_MET')]),
  }), { description: 'Products not sold, back to unassigned, and why' }),
});
export type Settled = Static<typeof Settled>;

export const RegisterForAuctionBody = Type.Object({
  auction_id: IdRef('auction_id', 'auction_id is required'),
});
export type RegisterForAuctionBody = Static<typeof RegisterForAuctionBody>;

// ---- photos and the lot page (docs/photos.md) ---------------------------------------------------

/** A photo as its upload, delete and order answers give it: the product shape's fields plus its size. */
export const ProductImageDetail = Type.Object({
  id: Type.Integer(),
  url: Type.String({ description: '/media/{name}.webp: at most 1,600 px on the longest side' }),
  thumb_url: Type.String({ description: '/media/{name}.webp: at most 400 px on the longest side' }),
  width: Type.Integer({ description: 'Of the full rendition, in pixels' }),
  height: Type.Integer({ description: 'Of the full rendition, in pixels' }),
});
export type ProductImageDetail = Static<typeof ProductImageDetail>;

export const ImageUploaded = Type.Object({ image: ProductImageDetail });
export type ImageUploaded = Static<typeof ImageUploaded>;

export const ProductImages = Type.Object({ images: Type.Array(ProductImageDetail, { description: 'In order; the first is the cover' }) });
export type ProductImages = Static<typeof ProductImages>;

/** `/admin/products/{id}/images/{imageId}`. */
export const ImageParams = Type.Object({
  id: IdParams.properties.id,
  imageId: Type.String({ maxLength: 15, pattern: '^[0-9]{1,15}$', [X_ERROR]: 'imageId must be a number' }),
});

/** The new order: every one of the product's photo ids, each once, the cover first. */
export const ImageOrderBody = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647, [X_ERROR]: 'ids must be photo ids' }), {
    maxItems: LIMITS.imagesPerProduct, [X_ERROR]: `ids must list the product’s photos (at most ${LIMITS.imagesPerProduct})`,
  }),
});
export type ImageOrderBody = Static<typeof ImageOrderBody>;

/** `GET /media/{file}`: a rendition's name and `.webp`; an unknown name is a 404. */
export const MediaParams = Type.Object({ file: Type.String({ minLength: 1, maxLength: 80, [X_ERROR]: 'file must be 1–80 characters' }) });

/** One entry of a lot's history: a bid, or an automatic raise of a maximum bid (`auto`, with that bid's id). */
export const LotHistoryEntry = Type.Object({
  bid_id: Type.Integer(),
  amount: Type.Number({ description: 'Rupees' }),
  status: WireBidStatus,
  state: BidStatus,
  timestamp: Type.String({ description: 'ISO-8601 in TIMEZONE’s offset' }),
  bidder: Type.String({ description: '"You" for the caller, the username for the auction’s own admin, else "Bidder n" (n in order of first bid on the lot)' }),
  auto: Type.Boolean({ description: 'An automatic raise of a maximum bid (no money moved)' }),
  buy_now: Type.Boolean({ description: 'A purchase at the buy-now price' }),
});
export type LotHistoryEntry = Static<typeof LotHistoryEntry>;

/** History entries `GET /products/{id}` carries; the rest come from `GET /products/{id}/bids`. */
export const LOT_HISTORY_PAGE = PAGE_DEFAULT;

/** The `before` of a lot's history: an opaque cursor (the `next_before` of the page before). */
export const LotHistoryQuery = Type.Object({
  before: Type.Optional(Type.String({
    maxLength: 64, pattern: '^[0-9]{1,15}\\.[0-9]{1,15}\\.[01]\\.[0-9]{1,10}$', [X_ERROR]: 'before must be the next_before of a page of this history',
    description: 'Only entries after this one in the order shown: the `next_before` of the page before',
  })),
  limit: Type.Optional(PageLimit(LOT_HISTORY_PAGE)),
});
export type LotHistoryQuery = Static<typeof LotHistoryQuery>;

/** `GET /products/{id}/bids`: one page of a lot's history. */
export const LotHistoryPage = Type.Object({
  bids: Type.Array(LotHistoryEntry, { description: 'Highest first (then newest)' }),
  next_before: Type.Union([Type.String(), Type.Null()], { description: 'The `before` of the next page; null on the last' }),
});
export type LotHistoryPage = Static<typeof LotHistoryPage>;

/** `GET /products/{id}`: the product shape, its auction and the first page of its history, highest first. */
export const LotPage = Type.Object({
  ...Product.properties,
  auction: Type.Union([Auction, Type.Null()], { description: 'Null while the product is in no auction' }),
  bids: Type.Array(LotHistoryEntry, { description: `The bids in its current auction (refused attempts left out) and automatic raises, highest first: the first ${LOT_HISTORY_PAGE}` }),
  bids_next_before: Type.Union([Type.String(), Type.Null()], { description: 'More entries: `GET /products/{id}/bids?before=` this; null when `bids` is all of them' }),
});
export type LotPage = Static<typeof LotPage>;
