/**
 * The rows the store hands out, the same on every store. Money is integer paise, times are integer
 * milliseconds since the epoch (UTC), ids of accounts and bids are integers, of auctions and
 * products the admin's own text.
 */
import type {
  ACCOUNT_STATUSES, BID_STATUSES, CANCEL_POLICIES, INCREMENT_RULES, LEDGER_TYPES, NOTIFICATION_KINDS, PRODUCT_STATUSES, ROLES,
} from '@auction/shared';

// The enumerations are shared/src/schemas/enums.ts's: the drizzle schemas and the API's schemas use the same arrays.
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export type Role = (typeof ROLES)[number];
export type IncrementRule = (typeof INCREMENT_RULES)[number];
export type CancelPolicy = (typeof CANCEL_POLICIES)[number];
export type BidStatus = (typeof BID_STATUSES)[number];
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export type LedgerType = (typeof LEDGER_TYPES)[number];

export interface UserRow {
  id: number;
  /** Stored lower-cased: usernames are case-insensitive. */
  username: string;
  name: string;
  mobileNumber: string;
  passwordHash: string;
  /** Cached Σ ledger, kept in the same transaction as every ledger row. */
  walletBalance: number;
  status: AccountStatus;
  /** Bumped by a password change or a deactivation: tokens carrying an older `ver` are refused. */
  tokenVersion: number;
  createdAt: number;
  /** The confirmed address, lower-cased; null when none (docs/email.md). */
  email: string | null;
  /** An address given and waiting for its confirmation link to be opened. */
  pendingEmail: string | null;
}

export interface AdminRow {
  id: number;
  username: string;
  name: string;
  mobileNumber: string;
  passwordHash: string;
  /** The first admin ever registered owns the platform (the `owner` routes: managing bidders). */
  isOwner: boolean;
  status: AccountStatus;
  tokenVersion: number;
  createdAt: number;
  email: string | null;
  pendingEmail: string | null;
}

export interface AuctionRow {
  id: string;
  name: string;
  /** The current end (soft close may have moved it past `originalValidUntil`). */
  validUntil: number;
  /** The end the admin set. */
  originalValidUntil: number;
  incrementRule: IncrementRule;
  /** Paise: the `flat` rule's step. */
  incrementAmount: number;
  /** The `custom` rule's tiers as stored: JSON `[{ below, step }]` in paise (see `stepsOf`), or null. */
  incrementTiers: string | null;
  cancelPolicy: CancelPolicy;
  /** Soft close window in seconds; 0 = off. */
  softCloseS: number;
  /** How far past `originalValidUntil` soft close may move the end, in seconds. */
  maxExtensionS: number;
  /** The buyer's premium in basis points, and the GST on it in percent (docs/money.md#all-in-prices). */
  buyerPremiumBp: number;
  premiumGstPct: number;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
  settledAt: number | null;
  deletedAt: number | null;
}

export interface ProductRow {
  id: string;
  name: string;
  description: string;
  createdBy: number;
  /** Null while unassigned. */
  auctionId: string | null;
  status: ProductStatus;
  /** Bids that did not fail on this product in its current auction; reset when the product moves. */
  bidCount: number;
  /** Bumped by every change of the highest bid or a sale; never reset (docs/live-protocol.md#versions-and-applying-events). */
  version: number;
  /** Paise. */
  startingPrice: number;
  /** Paise; secret; null = no reserve. */
  reservePrice: number | null;
  /** Paise; null = no buy-now. */
  buyNowPrice: number | null;
  /** GST on the hammer price, in percent (docs/money.md#all-in-prices). */
  gstPct: number;
  soldPrice: number | null;
  winnerId: number | null;
  /** Null: in no category (docs/catalogue.md). */
  categoryId: number | null;
  /** Its number in its auction (docs/catalogue.md#lot-numbers); null while in none. */
  lotNumber: number | null;
  createdAt: number;
  updatedAt: number;
  deletedAt: number | null;
}

/** A category of the catalogue's two-level tree (docs/catalogue.md). */
export interface CategoryRow {
  id: number;
  name: string;
  slug: string;
  parentId: number | null;
  createdAt: number;
}

export interface BidRow {
  id: number;
  userId: number;
  productId: string;
  auctionId: string;
  /** Paise: the price (a leading proxy's visible highest bid). */
  amount: number;
  /** Paise: a proxy bid's maximum; null for a plain bid. */
  maxAmount: number | null;
  /** Paise: what it holds while it leads, the all-in price of its top (docs/money.md#all-in-prices). */
  held: number;
  buyNow: boolean;
  /** Epoch ms: the end this bid moved its auction from by soft close, and the end it set; null when it moved none. */
  extendedFrom: number | null;
  extendedTo: number | null;
  status: BidStatus;
  /** Error code of a refused attempt (`failed`), or why a hold was released. */
  reason: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface TransactionRow {
  id: number;
  userId: number;
  /** topup (+), bid (− funds held or paid), refund (+ a hold released). */
  type: LedgerType;
  /** Always positive; `type` gives the sign. */
  amount: number;
  bidId: number | null;
  productId: string | null;
  notes: string | null;
  createdAt: number;
}

/** A product photo with its renditions' names and the full rendition's size (photos). */
export interface ProductImageRow {
  id: number;
  productId: string;
  position: number;
  imageName: string;
  thumbName: string;
  width: number;
  height: number;
}

// ---- notifications (saved lots and notifications) ----------------------------------------------
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A bidder's notice (docs/notifications.md): newest first, the latest 500 kept. */
export interface NotificationRow {
  id: number;
  userId: number;
  kind: NotificationKind;
  title: string;
  body: string;
  /** The lot page, `/auctions/{auctionId}/products/{productId}`. */
  link: string;
  /** Makes a notice that must be written once unique per user (ending soon); null for the others. */
  dedupe: string | null;
  createdAt: number;
  readAt: number | null;
}

/** The select list of a notification row, for a table alias. */
export const notificationColumns = (t: string) =>
  `${t}.id, ${t}.user_id as "userId", ${t}.kind, ${t}.title, ${t}.body, ${t}.link, ${t}.dedupe, ${t}.created_at as "createdAt", ${t}.read_at as "readAt"`;
// ---- end notifications ---------------------------------------------------------------------------

/** The select lists that turn stored columns into these rows, for a table alias. */
export const columns = {
  user: (t: string) => `${t}.id, ${t}.username, ${t}.name, ${t}.mobile_number as "mobileNumber", ${t}.password_hash as "passwordHash", ${t}.wallet_balance as "walletBalance", ${t}.status, ${t}.token_version as "tokenVersion", ${t}.created_at as "createdAt", ${t}.email, ${t}.pending_email as "pendingEmail"`,
  admin: (t: string) => `${t}.id, ${t}.username, ${t}.name, ${t}.mobile_number as "mobileNumber", ${t}.password_hash as "passwordHash", ${t}.is_owner as "isOwner", ${t}.status, ${t}.token_version as "tokenVersion", ${t}.created_at as "createdAt", ${t}.email, ${t}.pending_email as "pendingEmail"`,
  auction: (t: string) => `${t}.id, ${t}.name, ${t}.valid_until as "validUntil", ${t}.original_valid_until as "originalValidUntil", ${t}.increment_rule as "incrementRule", ${t}.increment_amount as "incrementAmount", ${t}.increment_tiers as "incrementTiers", ${t}.cancel_policy as "cancelPolicy", ${t}.soft_close_s as "softCloseS", ${t}.max_extension_s as "maxExtensionS", ${t}.buyer_premium_bp as "buyerPremiumBp", ${t}.premium_gst_pct as "premiumGstPct", ${t}.created_by as "createdBy", ${t}.created_at as "createdAt", ${t}.updated_at as "updatedAt", ${t}.settled_at as "settledAt", ${t}.deleted_at as "deletedAt"`,
  product: (t: string) => `${t}.id, ${t}.name, ${t}.description, ${t}.created_by as "createdBy", ${t}.auction_id as "auctionId", ${t}.status, ${t}.bid_count as "bidCount", ${t}.version, ${t}.starting_price as "startingPrice", ${t}.reserve_price as "reservePrice", ${t}.buy_now_price as "buyNowPrice", ${t}.gst_pct as "gstPct", ${t}.sold_price as "soldPrice", ${t}.winner_id as "winnerId", ${t}.category_id as "categoryId", ${t}.lot_number as "lotNumber", ${t}.created_at as "createdAt", ${t}.updated_at as "updatedAt", ${t}.deleted_at as "deletedAt"`,
  category: (t: string) => `${t}.id, ${t}.name, ${t}.slug, ${t}.parent_id as "parentId", ${t}.created_at as "createdAt"`,
  bid: (t: string) => `${t}.id, ${t}.user_id as "userId", ${t}.product_id as "productId", ${t}.auction_id as "auctionId", ${t}.amount, ${t}.max_amount as "maxAmount", ${t}.held, ${t}.buy_now as "buyNow", ${t}.extended_from as "extendedFrom", ${t}.extended_to as "extendedTo", ${t}.status, ${t}.reason, ${t}.created_at as "createdAt", ${t}.updated_at as "updatedAt"`,
  transaction: (t: string) => `${t}.id, ${t}.user_id as "userId", ${t}.type, ${t}.amount, ${t}.bid_id as "bidId", ${t}.product_id as "productId", ${t}.notes, ${t}.created_at as "createdAt"`,
};

/** SQLite reads booleans back as 0/1. */
export const asBid = (row: BidRow): BidRow => ({ ...row, buyNow: Boolean(row.buyNow) });

/** SQLite reads booleans back as 0/1. */
export const asAdmin = (row: AdminRow): AdminRow => ({ ...row, isOwner: Boolean(row.isOwner) });

/**
 * Integer ids are 32-bit in both stores; an id from a request beyond that (the API takes up to 15
 * digits) names no row. Ask before querying: PostgreSQL refuses such a parameter outright.
 */
export const isStorableId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
