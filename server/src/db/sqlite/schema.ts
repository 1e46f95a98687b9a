/**
 * The whole store. Money columns are integer paise; times are integer milliseconds since the epoch
 * (UTC). Auctions and products are deleted softly (`deleted_at`) so that bids and ledger rows that
 * mention them stay readable; their ids stay reserved.
 */
import {
  ACCOUNT_STATUSES, AUTO_BID_STATUSES, BID_STATUSES, CANCEL_POLICIES, INCREMENT_RULES, LEDGER_TYPES, NOTIFICATION_KINDS, PRODUCT_STATUSES,
} from '@auction/shared';
import { sql } from 'drizzle-orm';
import { blob, check, index, integer, primaryKey, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { sqlList } from '../enum-sql.js';


export const users = sqliteTable('users', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Stored lower-cased: usernames are case-insensitive. */
  username: text('username').notNull(),
  name: text('name').notNull(),
  mobileNumber: text('mobile_number').notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Cached Σ ledger for this user, kept in the same transaction as every ledger row. */
  walletBalance: integer('wallet_balance').notNull().default(0),
  status: text('status', { enum: ACCOUNT_STATUSES }).notNull().default('active'),
  /** Bumped by a password change or a deactivation: tokens carrying an older `ver` are refused. */
  tokenVersion: integer('token_version').notNull().default(0),
  createdAt: integer('created_at').notNull(),
  /** The confirmed address, lower-cased (docs/email.md): the only one that gets mail. */
  email: text('email'),
  /** An address given and not yet confirmed (its link is in account_tokens). */
  pendingEmail: text('pending_email'),
  /** The kinds of notice also sent by email, comma-separated. */
  emailNotices: text('email_notices').notNull().default('won,outbid,ending_soon'),
}, (t) => [
  uniqueIndex('users_username_uq').on(t.username),
  // Unique among confirmed addresses (an address waiting for confirmation holds nothing).
  uniqueIndex('users_email_uq').on(t.email).where(sql`${t.email} is not null`),
  check('users_wallet_nonneg', sql`${t.walletBalance} >= 0`),
  check('users_status_ck', sql`${t.status} in (${sqlList(ACCOUNT_STATUSES)})`),
]);

export const admins = sqliteTable('admins', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  username: text('username').notNull(),
  name: text('name').notNull(),
  mobileNumber: text('mobile_number').notNull(),
  passwordHash: text('password_hash').notNull(),
  /** The first admin ever registered owns the platform (the `owner` routes: managing bidders). */
  isOwner: integer('is_owner', { mode: 'boolean' }).notNull().default(false),
  status: text('status', { enum: ACCOUNT_STATUSES }).notNull().default('active'),
  tokenVersion: integer('token_version').notNull().default(0),
  createdAt: integer('created_at').notNull(),
  email: text('email'),
  pendingEmail: text('pending_email'),
}, (t) => [
  uniqueIndex('admins_username_uq').on(t.username),
  uniqueIndex('admins_email_uq').on(t.email).where(sql`${t.email} is not null`),
  // At most one owner, whatever the interleaving of the first registrations.
  uniqueIndex('admins_one_owner_uq').on(t.isOwner).where(sql`${t.isOwner} = 1`),
  check('admins_status_ck', sql`${t.status} in (${sqlList(ACCOUNT_STATUSES)})`),
]);

export const auctions = sqliteTable('auctions', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** The current end: `originalValidUntil`, moved later by soft close (docs/bidding.md). */
  validUntil: integer('valid_until').notNull(),
  /** The end the admin set (an edit of the end resets it); soft close never moves past it + `maxExtensionS`. */
  originalValidUntil: integer('original_valid_until').notNull().default(0),
  incrementRule: text('increment_rule', { enum: INCREMENT_RULES }).notNull().default('flat'),
  /** Paise: the `flat` rule's step (₹1 to ₹1,00,000). */
  incrementAmount: integer('increment_amount').notNull().default(100),
  /** The `custom` rule's tiers as JSON `[{ below, step }]` in paise, ascending, the last with `below` null; null when never set. */
  incrementTiers: text('increment_tiers'),
  /** `until_end` or `strict` (docs/bidding.md#cancelling-a-bid). */
  cancelPolicy: text('cancel_policy', { enum: CANCEL_POLICIES }).notNull().default('until_end'),
  /** A bid taking the lead with less than this many seconds left moves the end to now + this; 0 = off. */
  softCloseS: integer('soft_close_s').notNull().default(0),
  maxExtensionS: integer('max_extension_s').notNull().default(3600),
  /** The buyer's premium on the hammer, in basis points (12.5 % is 1250), 0–5000 (docs/money.md#all-in-prices). */
  buyerPremiumBp: integer('buyer_premium_bp').notNull().default(0),
  /** GST on the premium, in percent: PREMIUM_GST_PCT when the auction was created or its premium last set. */
  premiumGstPct: integer('premium_gst_pct').notNull().default(18),
  createdBy: integer('created_by').notNull().references(() => admins.id),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  settledAt: integer('settled_at'),
  deletedAt: integer('deleted_at'),
}, (t) => [
  index('auctions_created_by_idx').on(t.createdBy),
  check('auctions_increment_ck', sql`${t.incrementRule} in (${sqlList(INCREMENT_RULES)}) and ${t.incrementAmount} between 100 and 10000000`),
  check('auctions_cancel_policy_ck', sql`${t.cancelPolicy} in (${sqlList(CANCEL_POLICIES)})`),
  check('auctions_soft_close_ck', sql`${t.softCloseS} >= 0 and ${t.maxExtensionS} >= 0`),
  check('auctions_premium_ck', sql`${t.buyerPremiumBp} between 0 and 5000 and ${t.premiumGstPct} between 0 and 100`),
  // The scheduler's question: which live auctions end next?
  index('auctions_open_end_idx').on(t.validUntil).where(sql`${t.settledAt} is null and ${t.deletedAt} is null`),
]);

/** The catalogue's categories: a tree of two levels (docs/catalogue.md); a top-level one has no parent. */
export const categories = sqliteTable('categories', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  /** Lower-case words joined by `-`, unique: how a link or a filter names the category. */
  slug: text('slug').notNull(),
  parentId: integer('parent_id').references((): AnySQLiteColumn => categories.id),
  createdAt: integer('created_at').notNull(),
}, (t) => [
  uniqueIndex('categories_slug_uq').on(t.slug),
  index('categories_parent_idx').on(t.parentId),
]);

export const products = sqliteTable('products', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  createdBy: integer('created_by').notNull().references(() => admins.id),
  /** Null while unassigned. */
  auctionId: text('auction_id').references(() => auctions.id),
  status: text('status', { enum: PRODUCT_STATUSES }).notNull().default('available'),
  /**
   * Bids that did not fail on this product in its current auction: kept beside the row so the bid
   * path reads it in one indexed step however many bids there are; reset when the product moves.
   */
  bidCount: integer('bid_count').notNull().default(0),
  /**
   * Bumped in the same transaction by every change of the highest bid or a sale; never reset, so a
   * client (or a process relaying events from others) can drop an event older than what it shows.
   */
  version: integer('version').notNull().default(0),
  /** Paise: the first bid must be at least this (and at least ₹1). */
  startingPrice: integer('starting_price').notNull().default(0),
  /** Paise, secret: below it at the close the lot is not sold. Null: no reserve. */
  reservePrice: integer('reserve_price'),
  /** Paise: a bidder may buy at once for this while it is available (docs/bidding.md). */
  buyNowPrice: integer('buy_now_price'),
  /** GST on the lot's hammer price, in percent: 0, 5, 12, 18 or 28 (docs/money.md#all-in-prices). */
  gstPct: integer('gst_pct').notNull().default(0),
  soldPrice: integer('sold_price'),
  winnerId: integer('winner_id').references(() => users.id),
  /** Null: in no category. */
  categoryId: integer('category_id').references(() => categories.id),
  /** Its number in its auction (1, 2, 3 …; docs/catalogue.md#lot-numbers); null while in none. */
  lotNumber: integer('lot_number'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
  deletedAt: integer('deleted_at'),
}, (t) => [
  index('products_auction_idx').on(t.auctionId),
  index('products_category_idx').on(t.categoryId),
  // The auctions of a category's live lots, read from the index alone (the catalogue's category filter and counts).
  index('products_category_auction_idx').on(t.categoryId, t.auctionId).where(sql`${t.deletedAt} is null`),
  index('products_owner_idx').on(t.createdBy, t.auctionId),
  index('products_winner_idx').on(t.winnerId),
  check('products_status_ck', sql`${t.status} in (${sqlList(PRODUCT_STATUSES)})`),
  check('products_sold_ck', sql`(${t.status} = 'sold') = (${t.soldPrice} is not null)`),
  check('products_pricing_ck', sql`${t.startingPrice} >= 0 and (${t.reservePrice} is null or ${t.reservePrice} >= ${t.startingPrice}) and (${t.buyNowPrice} is null or (${t.buyNowPrice} > ${t.startingPrice} and (${t.reservePrice} is null or ${t.buyNowPrice} >= ${t.reservePrice})))`),
  check('products_gst_ck', sql`${t.gstPct} in (0, 5, 12, 18, 28)`),
]);

export const registrations = sqliteTable('registrations', {
  auctionId: text('auction_id').notNull().references(() => auctions.id),
  userId: integer('user_id').notNull().references(() => users.id),
  createdAt: integer('created_at').notNull(),
}, (t) => [
  primaryKey({ columns: [t.auctionId, t.userId] }),
  index('registrations_user_idx').on(t.userId),
]);

export const bids = sqliteTable('bids', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id').notNull().references(() => users.id),
  productId: text('product_id').notNull().references(() => products.id),
  auctionId: text('auction_id').notNull().references(() => auctions.id),
  /** Paise: the bid's price (for a leading proxy, the visible highest bid, raised automatically). */
  amount: integer('amount').notNull(),
  /** Paise: a proxy bid's maximum (what it holds while it leads); null for a plain bid. */
  maxAmount: integer('max_amount'),
  /**
   * Paise: what this bid holds from its bidder's wallet while it leads: the all-in price of its top (its
   * maximum, or its amount for a plain bid) on the lot's terms when the hold was taken; 0 for a bid
   * that never held (refused, bought now).
   */
  held: integer('held').notNull().default(0),
  /**
   * Paise: the price the bid was placed at (`amount` moves with a proxy's automatic raises); the lot's
   * history shows this for the bid itself. Null on bids placed before it was kept: `amount` stands in.
   */
  placedAmount: integer('placed_amount'),
  /**
   * Epoch ms: the end of the auction before this bid moved it by soft close, and the end it set; null
   * when it moved nothing. A cancel of the bid moves the end back while it is still the one it set
   * (docs/bidding.md#cancelling-a-bid).
   */
  extendedFrom: integer('extended_from'),
  extendedTo: integer('extended_to'),
  /** Bought at the buy-now price (status `won` at once). */
  buyNow: integer('buy_now', { mode: 'boolean' }).notNull().default(false),
  status: text('status', { enum: BID_STATUSES }).notNull(),
  /** Error code of a refused attempt (`failed`), or why a hold was released. */
  reason: text('reason'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}, (t) => [
  // The leader of a product is unique: the store itself refuses a second `success` bid.
  uniqueIndex('bids_leader_uq').on(t.productId).where(sql`${t.status} = 'success'`),
  index('bids_product_idx').on(t.productId, t.auctionId, t.status),
  index('bids_user_idx').on(t.userId, t.id),
  // A bidder's leading bids (what their wallet has on hold: POST /wallet's on_hold, a deactivation's releases),
  // found without walking every bid they ever placed.
  index('bids_user_leading_idx').on(t.userId).where(sql`${t.status} = 'success'`),
  index('bids_auction_idx').on(t.auctionId, t.status),
  check('bids_amount_pos', sql`${t.amount} > 0`),
  check('bids_status_ck', sql`${t.status} in (${sqlList(BID_STATUSES)})`),
  check('bids_max_ck', sql`${t.maxAmount} is null or ${t.maxAmount} >= ${t.amount}`),
  check('bids_held_ck', sql`${t.held} >= 0`),
]);

/** Automatic raises of a leading proxy bid (its price moved, no money moved), for the lot's history. */
export const autoBids = sqliteTable('auto_bids', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  bidId: integer('bid_id').notNull().references(() => bids.id),
  productId: text('product_id').notNull(),
  amount: integer('amount').notNull(),
  /** `rolledback` once cancelled with the bid it answered (docs/bidding.md#cancelling-a-bid); else `accepted`. */
  status: text('status', { enum: AUTO_BID_STATUSES }).notNull().default('accepted'),
  createdAt: integer('created_at').notNull(),
}, (t) => [
  index('auto_bids_product_idx').on(t.productId, t.id),
  index('auto_bids_bid_idx').on(t.bidId),
]);

export const walletTransactions = sqliteTable('wallet_transactions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id').notNull().references(() => users.id),
  /** topup (+), bid (− funds held or paid), refund (+ a hold released). */
  type: text('type', { enum: LEDGER_TYPES }).notNull(),
  /** Always positive; `type` gives the sign. */
  amount: integer('amount').notNull(),
  bidId: integer('bid_id').references(() => bids.id),
  productId: text('product_id'),
  notes: text('notes'),
  createdAt: integer('created_at').notNull(),
}, (t) => [
  index('wallet_tx_user_idx').on(t.userId, t.id),
  // Foreign keys are checked from both sides: without this, every new bid row scanned the ledger.
  index('wallet_tx_bid_idx').on(t.bidId),
  check('wallet_tx_amount_pos', sql`${t.amount} > 0`),
  check('wallet_tx_type_ck', sql`${t.type} in (${sqlList(LEDGER_TYPES)})`),
]);

/** Image renditions (WebP), named by a hash of their bytes: every process serves them, a backup holds them. */
export const media = sqliteTable('media', {
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: integer('created_at').notNull(),
});

/** A product's photos in order (the first is the cover): a full rendition and a thumbnail each. */
export const productImages = sqliteTable('product_images', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  productId: text('product_id').notNull().references(() => products.id),
  position: integer('position').notNull(),
  imageName: text('image_name').notNull().references(() => media.name),
  thumbName: text('thumb_name').notNull().references(() => media.name),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: integer('created_at').notNull(),
}, (t) => [
  index('product_images_product_idx').on(t.productId, t.position),
  // A deleted photo's renditions go once no photo names them (and the foreign keys check the same way).
  index('product_images_image_idx').on(t.imageName),
  index('product_images_thumb_idx').on(t.thumbName),
]);

/** Lots a bidder saved for later (the word "watch" already means joining a live room). */
export const savedLots = sqliteTable('saved_lots', {
  userId: integer('user_id').notNull().references(() => users.id),
  productId: text('product_id').notNull().references(() => products.id),
  createdAt: integer('created_at').notNull(),
}, (t) => [
  primaryKey({ columns: [t.userId, t.productId] }),
  index('saved_lots_product_idx').on(t.productId),
]);

/** A bidder's notices, newest first; `dedupe` makes a notice that must be written once (ending soon) unique per user. */
export const notifications = sqliteTable('notifications', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id').notNull().references(() => users.id),
  kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
  title: text('title').notNull(),
  body: text('body').notNull(),
  link: text('link').notNull(),
  dedupe: text('dedupe'),
  createdAt: integer('created_at').notNull(),
  readAt: integer('read_at'),
  /**
   * Null until the clock's process has turned the notice into an email or decided it gets none
   * (mail/notice-mails.ts): the notice is the outbox entry its change wrote, in its own transaction.
   */
  mailedAt: integer('mailed_at'),
}, (t) => [
  index('notifications_unmailed_idx').on(t.id).where(sql`${t.mailedAt} is null`),
  index('notifications_user_idx').on(t.userId, t.id),
  // The unread count from the index alone (the bell, and every notice written).
  index('notifications_unread_idx').on(t.userId, t.readAt).where(sql`${t.readAt} is null`),
  uniqueIndex('notifications_dedupe_uq').on(t.userId, t.dedupe).where(sql`${t.dedupe} is not null`),
  check('notifications_kind_ck', sql`${t.kind} in (${sqlList(NOTIFICATION_KINDS)})`),
]);

/**
 * The mail outbox (server/src/mail/sender.ts): a mail is written in the transaction of the change that
 * causes it and sent after commit by the one process that leads the scheduler, at least once.
 */
export const mailOutbox = sqliteTable('mail_outbox', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** What it is about (`password_reset`, `verify_email`, a notice kind). */
  kind: text('kind').notNull(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  /** Extra headers as a JSON object (List-Unsubscribe, …). */
  headers: text('headers').notNull(),
  createdAt: integer('created_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: integer('next_attempt_at').notNull(),
  sentAt: integer('sent_at'),
  failedAt: integer('failed_at'),
  lastError: text('last_error'),
  /** The bidder a notice email is for, and what it is about (`outbid:<auction>:<product>`): at most one outbid email per lot in a window. */
  userId: integer('user_id'),
  topic: text('topic'),
}, (t) => [
  index('mail_outbox_topic_idx').on(t.userId, t.topic, t.createdAt).where(sql`${t.topic} is not null`),
  // The sender's question: what is due, oldest first; sent and failed mails are not in it.
  index('mail_outbox_due_idx').on(t.nextAttemptAt, t.id).where(sql`${t.sentAt} is null and ${t.failedAt} is null`),
]);

/**
 * Single-use tokens of links the server mails (docs/email.md): a password reset (30 minutes), an
 * address confirmation (24 hours), or the undoing of an address change (7 days, sent to the address
 * replaced). Only the token's SHA-256 is kept; `usedAt` marks it spent.
 */
export const accountTokens = sqliteTable('account_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  role: text('role', { enum: ['user', 'admin'] }).notNull(),
  accountId: integer('account_id').notNull(),
  purpose: text('purpose', { enum: ['password_reset', 'verify_email', 'undo_email'] }).notNull(),
  tokenHash: text('token_hash').notNull(),
  /** The address the link was sent to (for a confirmation: the address it confirms; for an undo: the address it restores). */
  email: text('email').notNull(),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
  usedAt: integer('used_at'),
}, (t) => [
  uniqueIndex('account_tokens_hash_uq').on(t.tokenHash),
  index('account_tokens_account_idx').on(t.role, t.accountId, t.purpose),
  check('account_tokens_role_ck', sql`${t.role} in ('user', 'admin')`),
  check('account_tokens_purpose_ck', sql`${t.purpose} in ('password_reset', 'verify_email', 'undo_email')`),
]);

/**
 * Mail per recipient (docs/email.md, "Limits"): how many mails of a kind (`verify_email`,
 * `password_reset`) went to an address since `windowStart`, so that at most a few a day reach it,
 * whoever asks for them. One row per address and kind, counted up under its lock.
 */
export const mailCaps = sqliteTable('mail_caps', {
  address: text('address').notNull(),
  kind: text('kind').notNull(),
  windowStart: integer('window_start').notNull(),
  sent: integer('sent').notNull(),
}, (t) => [primaryKey({ columns: [t.address, t.kind] })]);
