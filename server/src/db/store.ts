/**
 * The store interface (docs/architecture.md, "The store"): a unit of work for the commands, single-statement reads for
 * everything else, and what the server needs to run and close it. Two implementations, `sqlite/`
 * and `postgres/`, share every statement (unit-of-work.ts, reads.ts) and differ in their driver,
 * their transactions and the few words of `Dialect`.
 */
import type { Reads } from './reads.js';
import type { Result } from '../errors.js';
import type { AccountStatus, AdminRow, CategoryRow, AuctionRow, BidRow, BidStatus, LedgerType, ProductRow, Role, TransactionRow, UserRow } from './rows.js';
import type { NotificationKind, NotificationRow, ProductImageRow } from './rows.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Store {
  readonly kind: StoreKind;
  /** Absolute path of the SQLite file; null for `:memory:` and for PostgreSQL. */
  readonly file: string | null;
  /** Single-statement reads of committed data. */
  readonly reads: Reads;
  /**
   * Runs `work` as one transaction: all of its writes or none. A refusal is a result, so a `work`
   * that returns normally commits (a refused bid's `failed` row included); one that throws rolls back.
   * PostgreSQL retries a deadlock or serialization failure a few times (so `work` may run again and
   * must only touch the store through `tx`); then, as for a store busy past its timeout, the promise
   * rejects with StoreUnavailable.
   */
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  /** Portable SQL with `?` placeholders, for audits, tests and scripts (never for the request path). */
  query<T>(text: string, params?: readonly (string | number | boolean | null)[]): Promise<T[]>;
  /**
   * 'ok', or what is wrong with the stored data itself: SQLite checks every page and foreign key;
   * PostgreSQL enforces its constraints on every write and checks its pages as it reads them.
   */
  integrityCheck(): Promise<string>;
  /** Cheap liveness probe for /api/health. */
  ping(): Promise<boolean>;
  /** The connections this process may hold, those in use and the work waiting for one (/metrics); null on SQLite. */
  connections(): { size: number; inUse: number; waiting: number } | null;
  /**
   * Elects one process among those sharing this store to do the job `name` (the scheduler):
   * `onChange(true)` when this process takes it on, `onChange(false)` when it must stop. Resolves
   * after the first try (having awaited `onChange(true)` if it won). SQLite serves one process, which
   * always leads; PostgreSQL holds an advisory lock (postgres/election.ts).
   */
  elect(name: string, onChange: (leading: boolean) => void | Promise<void>, onError: (err: unknown) => void): Promise<Election>;
  close(): Promise<void>;
  /**
   * Where it has them, lanes that decide the bids queued on one lot together, in one transaction
   * (PostgreSQL: a group commit per lot); null where every command is its own unit of work.
   */
  readonly lots: LotLanes | null;
}

/** What bidding and buying now read and write: the part of a unit of work a lot batch serves. */
export type LotUnitOfWork = Pick<UnitOfWork, 'lockProduct' | 'openProductsByName' | 'leader' | 'lockWallets' | 'isRegistered' | 'runnerUpTop' | 'followersOf' | 'bidWithContext' | 'apply'>;

/** A command decided, its writes not yet applied: the change set, and its answer once applied. */
export interface PreparedChange<T> {
  changes: ChangeSet;
  finish: (applied: Applied) => T;
}

/** A command on one lot, by the caller `userId` (whose wallet it may move) at `now`. */
export interface LotWork<T extends object> {
  /** The product id (or, for a bid, a product's name: such work is not batched). */
  productRef: string;
  userId: number;
  now: number;
  /** Decides against `tx`; a refusal may have applied its own record (a failed bid) through `tx`. */
  prepare: (tx: LotUnitOfWork) => Promise<Result<PreparedChange<T>>>;
}

export interface LotLanes {
  /**
   * Queues `work` behind the lot's other work in this process and runs it in the lot's next batch; its
   * answer once that batch has committed. Null when the work cannot be batched: run it on its own.
   */
  run<T extends object>(work: LotWork<T>): Promise<Result<T> | null>;
}

export interface Election {
  readonly isLeader: boolean;
  /** Gives the job up (another process takes it over) and stops trying. */
  stop(): Promise<void>;
}

/** A leading (or candidate) bid: who bid how much. */
export interface Hold {
  bidId: number;
  userId: number;
  /** Paise: the price (for a proxy, what it has reached). */
  amount: number;
  /** Paise: a proxy bid's maximum; null for a plain bid. */
  maxAmount: number | null;
}

/** What a leading bid holds from its bidder's wallet: a proxy its whole maximum, a plain bid its amount. */
export const heldBy = (h: Pick<Hold, 'amount' | 'maxAmount'>): number => h.maxAmount ?? h.amount;

/** A leading proxy's top: its maximum, or its price for a plain bid. */
export const topOf = heldBy;

/** An automatic raise of a maximum bid (a row of the lot's history; no money moved). */
export interface AutoRaise {
  id: number;
  bidId: number;
  /** Paise: the price it raised the bid to. */
  amount: number;
}

/** A bidder's wallet as a command sees it, locked until commit. */
export interface Wallet {
  id: number;
  username: string;
  status: AccountStatus;
  balance: number;
}

export interface LedgerMove {
  userId: number;
  type: LedgerType;
  /** Positive paise; `type` gives the sign. */
  amount: number;
  /** The bid this move belongs to; `'new'` is the change set's new bid. */
  bidId?: number | 'new' | null;
  productId?: string | null;
  notes?: string | null;
}

export type ProductChanges = Partial<Pick<ProductRow, 'name' | 'description' | 'auctionId' | 'status' | 'soldPrice' | 'winnerId' | 'bidCount' | 'version' | 'deletedAt' | 'startingPrice' | 'reservePrice' | 'buyNowPrice' | 'categoryId' | 'lotNumber'>>;
export type AuctionChanges = Partial<Pick<AuctionRow, 'name' | 'validUntil' | 'originalValidUntil' | 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'softCloseS' | 'maxExtensionS' | 'settledAt' | 'deletedAt'>>;

/**
 * What a decision writes, applied in this order by `UnitOfWork.apply`: bid status changes (a leader
 * steps down before another leads), the new bid, the ledger moves in their order (a released hold
 * before a new one, so a raise never passes through a negative balance), then products and auctions.
 * Every changed product and auction gets `updated_at` = the command's time.
 */
export interface ChangeSet {
  /** Status changes; `amount` and `maxAmount` when a price moves (an automatic raise, a leader priced again after a cancel). */
  bids?: { id: number; status: BidStatus; reason?: string | null; amount?: number; maxAmount?: number | null }[];
  /** `extendedFrom`/`extendedTo`: the end the bid moved its auction from by soft close, and the end it set. */
  newBid?: { userId: number; productId: string; auctionId: string; amount: number; maxAmount?: number | null; buyNow?: boolean; status: BidStatus; reason: string | null; extendedFrom?: number | null; extendedTo?: number | null };
  /** Automatic raises of leading proxies (history only: no money moves), written after the bids. */
  autoBids?: { bidId: number; productId: string; amount: number }[];
  /** Ids of automatic raises cancelled with the bid they answered (status `rolledback`), written after the bids. */
  autoBidsRolledBack?: number[];
  moves?: LedgerMove[];
  products?: { id: string; set: ProductChanges }[];
  auctions?: { id: string; set: AuctionChanges }[];
  // ---- notifications ----
  /** Notices to write last, in this transaction (docs/notifications.md); one with a `dedupe` key already written is skipped (or, with `replace`, replaces it). */
  notices?: NoticeDraft[];
}

// ---- notifications -----------------------------------------------------------------------------
/** A notice a change writes for one bidder (docs/notifications.md). */
export interface NoticeDraft {
  userId: number;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  /** Written at most once per user with this key (e.g. `won:{auctionId}:{productId}`); null or left out: always. */
  dedupe?: string | null;
  /**
   * With `dedupe`: a notice the user already has under this key is replaced by this one (the same row
   * and id, its kind, title, body and link; unread again, dated now) instead of this one being skipped.
   */
  replace?: boolean;
}

/** A notice written, with its user's unread count after the change (for `notification:new`). */
export interface AppliedNotice {
  row: NotificationRow;
  unread: number;
}

/** A bidder who follows a lot: has a bid that did not fail on it in its auction, or saved it. */
export interface Follower {
  userId: number;
  productId: string;
  productName: string;
  /** Whether they bid on it (not only saved it). */
  bid: boolean;
}

/**
 * How many notices a bidder keeps, pruned in the transaction that writes a new one: the notices it
 * writes stay, then final outcomes (FINAL_NOTICE_KINDS) before the rest, the newest of each first.
 */
export const NOTICES_KEPT = 500;
/** What a bidder must not lose to a flood of other notices: how their lots ended. */
export const FINAL_NOTICE_KINDS = ['won', 'lost', 'unsold'] as const;
// ---- end notifications ---------------------------------------------------------------------------

/** A mail for the outbox: both parts written, and any extra headers. */
export interface MailDraft {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  /** A notice email's bidder and what it is about (`outbid:<auction>:<product>`), to space such emails out. */
  userId?: number;
  topic?: string;
}

/** An outbox row the sender reads. */
export interface MailRow extends Required<Omit<MailDraft, 'userId' | 'topic'>> {
  id: number;
  attempts: number;
  createdAt: number;
}

export interface Applied {
  newBid: BidRow | null;
  /** The ledger rows written, in order. */
  transactions: TransactionRow[];
  /** The last balance of every wallet that moved. */
  balances: Map<number, number>;
  /** The notices written, in order of id; those a `dedupe` key skipped are left out, those replaced are in with their own id. */
  notices: AppliedNotice[];
}

/** A product to create: without prices it starts at 0 with no reserve or buy-now; without a category it is in none. */
export type NewProduct = { id: string; name: string; description: string; createdBy: number; now: number } & Partial<Pick<ProductRow, 'startingPrice' | 'reservePrice' | 'buyNowPrice' | 'categoryId'>>;

/**
 * The reads and writes of the commands, inside one transaction. Reads named `lock…` lock what they
 * return until commit on PostgreSQL (`SELECT … FOR UPDATE`). Every command takes its locks in one
 * order, so two commands never wait for each other in a circle: an auction, then its products (by
 * ascending id), then wallets (by ascending id).
 */
export interface UnitOfWork {
  /**
   * Up to two live products in open auctions with this name (a bid may name its product), those in
   * auctions `userId` is registered for first, each saying whether it is.
   */
  openProductsByName(name: string, now: number, userId: number): Promise<{ id: string; registered: boolean }[]>;
  /** A live (not deleted) product, locked, with its auction (not locked) read after the lock. */
  lockProduct(id: string): Promise<{ product: ProductRow; auction: AuctionRow | null } | null>;
  /** Live products with these ids, locked in ascending id order. */
  lockProducts(ids: readonly string[]): Promise<ProductRow[]>;
  /** The live products of an auction, locked in ascending id order. */
  lockProductsOf(auctionId: string): Promise<ProductRow[]>;
  /** The live products of an auction and these others, locked together in ascending id order. */
  lockProductsFor(auctionId: string, ids: readonly string[]): Promise<ProductRow[]>;
  /** A live auction, not locked. */
  auction(id: string): Promise<AuctionRow | null>;
  /** A live auction, locked. */
  lockAuction(id: string): Promise<AuctionRow | null>;
  /** Whether an auction id was ever used (ids of deleted auctions stay reserved). */
  auctionIdTaken(id: string): Promise<boolean>;
  /** These wallets (bidders), locked in ascending id order; unknown ids are left out. */
  lockWallets(userIds: readonly number[]): Promise<Map<number, Wallet>>;
  /** The leading bid of a product, if any. */
  leader(productId: string): Promise<Hold | null>;
  /** The leading bids of these products, with the product they lead. */
  leaders(productIds: readonly string[]): Promise<(Hold & { productId: string })[]>;
  isRegistered(auctionId: string, userId: number): Promise<boolean>;
  /** A bid with its product's name and its auction. */
  bidWithContext(bidId: number): Promise<{ bid: BidRow; productName: string; auction: AuctionRow } | null>;
  /**
   * Bids that may lead again once `cancelled` is gone, best first (highest amount, then earliest):
   * `outbid` bids on its product in its auction by other active users who are registered and have not
   * cancelled a bid there.
   */
  reinstatementCandidates(cancelled: BidRow): Promise<Hold[]>;
  /**
   * The best top (a maximum, else the amount) among the `outbid` bids on the product in the auction of
   * bidders other than `userId` who may still lead there (as reinstatementCandidates); null when none.
   */
  runnerUpTop(productId: string, auctionId: string, userId: number): Promise<number | null>;
  /** The automatic raises (not cancelled) of these bids, by id. */
  autoRaisesOf(bidIds: readonly number[]): Promise<AutoRaise[]>;
  /**
   * The lot's bid count in an auction as the rows say it (docs/bidding.md#the-bid-count): its bids
   * that were accepted and not cancelled, and the automatic raises of its maximums not cancelled.
   */
  lotBidCount(productId: string, auctionId: string): Promise<number>;
  /** How many bids the bidder has cancelled (status rolledback, reason CANCELLED) in this auction, and of them on this product. */
  cancelsBy(userId: number, auctionId: string, productId: string): Promise<{ auction: number; lot: number }>;
  /** The bidder's leading bids (status success: auctions not yet settled), by product id. */
  leadingBidsOf(userId: number): Promise<BidRow[]>;

  /** Without prices: starting at 0, no reserve, no buy-now; without a category: in none. */
  insertProduct(row: NewProduct): Promise<ProductRow | null>;
  /**
   * Many products at once (the bulk import), in order, with their search entries: a few multi-row
   * statements instead of some per product. Resolves with the ids it inserted; an id already taken
   * is skipped (the caller refuses it).
   */
  insertProducts(rows: readonly NewProduct[]): Promise<Set<string>>;
  /**
   * Holds other product imports until commit, taken first in an import's transaction: imports then
   * never deadlock on each other's ids or categories, and a file's rows keep the file's order.
   */
  lockProductImports(): Promise<void>;

  // ---- categories (docs/catalogue.md) -----------------------------------------------------------
  /** A category, locked (on PostgreSQL) until commit. */
  lockCategory(id: number): Promise<CategoryRow | null>;
  /** Whether another category than `exceptId` has this slug. */
  categorySlugTaken(slug: string, exceptId?: number): Promise<boolean>;
  /** Whether a category has subcategories, or products (deleted ones aside) in it. */
  categoryInUse(id: number): Promise<{ children: boolean; products: boolean }>;
  /** Null when the slug is taken. */
  insertCategory(row: { name: string; slug: string; parentId: number | null; now: number }): Promise<CategoryRow | null>;
  updateCategory(id: number, set: { name: string; slug: string; parentId: number | null }): Promise<CategoryRow | null>;
  /** Deletes it; deleted products that named it forget it. */
  deleteCategory(id: number): Promise<void>;
  /** Without rules: flat steps, no soft close. */
  insertAuction(row: { id: string; name: string; validUntil: number; createdBy: number; now: number } & Partial<Pick<AuctionRow, 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'softCloseS' | 'maxExtensionS'>>): Promise<AuctionRow | null>;
  /** Resolves false when the user was registered already. */
  register(auctionId: string, userId: number, now: number): Promise<boolean>;

  /** Null when the username is taken. */
  insertUser(row: { username: string; name: string; mobileNumber: string; passwordHash: string; now: number }): Promise<UserRow | null>;
  /** Holds other admin sign-ups until commit (the first admin becomes the owner). */
  lockAdminSignup(): Promise<void>;
  hasOwner(): Promise<boolean>;
  /** Null when the username is taken. */
  insertAdmin(row: { username: string; name: string; mobileNumber: string; passwordHash: string; isOwner: boolean; now: number }): Promise<AdminRow | null>;
  /** Sets a new hash if the stored one is still `expected`, bumping the token version; the new version, or null. */
  replacePassword(role: Role, id: number, expected: string, passwordHash: string): Promise<number | null>;
  setUserStatus(id: number, status: AccountStatus): Promise<UserRow | null>;
  updateAdminProfile(id: number, name: string, mobileNumber: string): Promise<AdminRow | null>;

  // ---- saved lots and notifications ----
  /** Who follows the live lots of an auction (only `productIds` when given): bidders (bids that did not fail there) and, with `savers`, those who saved them. One row per user and lot, by user then lot. */
  followersOf(auctionId: string, opts?: { productIds?: readonly string[]; savers?: boolean }): Promise<Follower[]>;
  /** Whether a live (not deleted) product has this id. */
  /** Whether the product exists (not deleted) and is in an auction: a draft is its admin's alone. */
  productListed(id: string): Promise<boolean>;
  /** Resolves false when it was saved already. */
  saveLot(userId: number, productId: string, now: number): Promise<boolean>;
  /** Whether a saved lot was forgotten. */
  unsaveLot(userId: number, productId: string): Promise<boolean>;
  /** Marks the user's unread notices read (only `ids` when given; others' ids change nothing); the unread count after. */
  markNotificationsRead(userId: number, ids: readonly number[] | null, now: number): Promise<number>;

  // ---- the mail outbox (server/src/mail/sender.ts) -----------------------------------------------
  /** Writes a mail to send after commit, due at once; its id (the Message-ID's). */
  enqueueMail(mail: MailDraft, now: number): Promise<number>;
  /** The server took it: it is not sent again. */
  mailSent(id: number, now: number): Promise<void>;
  /** It failed `attempts` times so far: try again at `nextAt`. */
  mailRetry(id: number, attempts: number, nextAt: number, error: string): Promise<void>;
  /** Refused for good, or out of attempts: never sent. */
  mailFailed(id: number, attempts: number, now: number, error: string): Promise<void>;
  /** Of these (user, topic) pairs, those a mail was written about since `since`, as `<user id>|<topic>`. */
  mailedTopicsSince(pairs: readonly { userId: number; topic: string }[], since: number): Promise<Set<string>>;
  /** Writes several mails (enqueueMail's rows) in one statement. */
  enqueueMails(mails: readonly MailDraft[], now: number): Promise<void>;
  /**
   * Up to `limit` notices not yet turned into email, oldest first, with their bidder's address and
   * choices; claimed (locked, skipping those another transaction holds) until commit.
   */
  claimUnmailedNotices(limit: number): Promise<UnmailedNotice[]>;
  /** These notices are done with: mailed, or not to be. */
  markNoticesMailed(ids: readonly number[], now: number): Promise<void>;

  // ---- email addresses and links (docs/email.md) ------------------------------------------------
  /** Records an address waiting for confirmation (null: none); false when the account is gone. */
  setPendingEmail(role: Role, id: number, email: string | null): Promise<boolean>;
  /** Forgets the confirmed address too. */
  clearEmail(role: Role, id: number): Promise<void>;
  /** The account's confirmed address, status and names, locked until commit; null when there is no such account. */
  accountEmail(role: Role, id: number): Promise<{ email: string | null; status: AccountStatus; username: string; name: string } | null>;
  /** Whether another account of the kind has confirmed this address. */
  emailTaken(role: Role, email: string, exceptId: number): Promise<boolean>;
  /** Makes the pending address the confirmed one, if it is still `email`; false otherwise. */
  confirmEmail(role: Role, id: number, email: string): Promise<boolean>;
  insertAccountToken(row: { role: Role; accountId: number; purpose: TokenPurpose; tokenHash: string; email: string; now: number; expiresAt: number }): Promise<void>;
  /** Spends the unused, unexpired token with this hash: its row, or null when there is none (used, expired, unknown). */
  useAccountToken(tokenHash: string, purpose: TokenPurpose, now: number): Promise<AccountToken | null>;
  /** Spends every unused token of the account for `purpose` (only those of id `fromId` on, when given). */
  spendAccountTokens(role: Role, accountId: number, purpose: TokenPurpose, now: number, fromId?: number): Promise<void>;
  /** How many tokens for `purpose` the account was sent after `since`, used or not. */
  accountTokensSince(role: Role, accountId: number, purpose: TokenPurpose, since: number): Promise<number>;
  /**
   * Counts one more mail of `kind` to `address` (lower case), in a window that starts afresh once
   * `windowMs` have passed since it began; the count in the window, this one included. Concurrent
   * transactions counting the same address and kind wait for each other.
   */
  countMailTo(address: string, kind: string, now: number, windowMs: number): Promise<number>;
  /**
   * Makes `email` the account's confirmed address again (none waiting) and bumps its token version (every
   * session ends): the new version, or null when the account is gone.
   */
  restoreEmail(role: Role, id: number, email: string): Promise<number | null>;
  /** Sets a new password and bumps the token version (every session ends); the new version, or null when the account is gone. */
  resetPassword(role: Role, id: number, passwordHash: string): Promise<number | null>;
  /** The kinds of notice the bidder gets by email, and whether they have a confirmed address; null when there is no such bidder. */
  emailNotices(userId: number): Promise<{ kinds: string[]; email: string | null } | null>;
  /** The kinds of notice the bidder also gets by email. */
  setEmailNotices(userId: number, kinds: readonly string[]): Promise<void>;

  // ---- photos (docs/photos.md) --------------------------------------------------------------------
  /** A product's photos in order (the cover first), with their sizes. */
  productImages(productId: string): Promise<ProductImageRow[]>;
  /** Stores a rendition under its name (its content's hash); the same bytes again change nothing. */
  insertMedia(row: { name: string; contentType: string; bytes: Buffer; width: number; height: number; now: number }): Promise<void>;
  /** Adds a photo after the product's last one. */
  insertProductImage(row: { productId: string; imageName: string; thumbName: string; width: number; height: number; now: number }): Promise<ProductImageRow>;
  /** Whether a photo of this product was there to delete. */
  deleteProductImage(productId: string, imageId: number): Promise<boolean>;
  /** Positions 0, 1, … in the order of `ids` (the product's photo ids). */
  setImagePositions(productId: string, ids: readonly number[]): Promise<void>;

  /**
   * Numbers an auction's live lots (docs/catalogue.md#lot-numbers): afresh in listing order (creation)
   * while it has no bid that did not fail; once it has one, only lots without a number, after the highest.
   */
  numberLots(auctionId: string): Promise<void>;

  /** Writes a decision's change set (see ChangeSet for the order); a product leaving its auction loses its lot number. */
  apply(changes: ChangeSet, now: number): Promise<Applied>;
}


/** What a mailed link's token is for (account_tokens.purpose). */
export type TokenPurpose = 'password_reset' | 'verify_email' | 'undo_email';

export interface AccountToken {
  id: number;
  role: Role;
  accountId: number;
  email: string;
}

/** A notice waiting to be turned into email, with what decides whether it is. */
export interface UnmailedNotice {
  id: number;
  userId: number;
  kind: string;
  title: string;
  body: string;
  link: string;
  createdAt: number;
  /** The bidder's confirmed address, or null. */
  email: string | null;
  /** The kinds the bidder gets by email, comma-separated. */
  emailNotices: string;
  status: string;
}
