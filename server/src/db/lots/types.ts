/**
 * Lots and their bids: locking a lot, its leader and runners-up, a bidder's bids and cancels, who follows it: the types.
 */
import type { AuctionRow, BidRow, BidStatus, CancelPolicy, ProductRow } from '../rows.js';

/** A leading (or candidate) bid: who bid how much. */
export interface Hold {
  bidId: number;
  userId: number;
  /** Paise: the price (for a proxy, what it has reached). */
  amount: number;
  /** Paise: a proxy bid's maximum; null for a plain bid. */
  maxAmount: number | null;
  /** Paise: what it holds while it leads (for a candidate, what it held when it last led). */
  held: number;
}

/** An automatic raise of a maximum bid (a row of the lot's history; no money moved). */
export interface AutoRaise {
  id: number;
  bidId: number;
  /** Paise: the price it raised the bid to. */
  amount: number;
}

/** A bidder who follows a lot: has a bid that did not fail on it in its auction, or saved it. */
export interface Follower {
  userId: number;
  productId: string;
  productName: string;
  /** Whether they bid on it (not only saved it). */
  bid: boolean;
}

/** A bidder's own standing on the lots of an auction (docs/bidding.md#what-you-see). */
export interface MyStanding {
  productId: string;
  /** The caller's best bid status there: success (leading), won, or outbid/unsold (bid, not leading). */
  status: BidStatus;
  maxAmount: number | null;
}

export interface UserBidView {
  id: number;
  productId: string;
  productName: string;
  auctionId: string;
  auctionName: string;
  amount: number;
  maxAmount: number | null;
  buyNow: boolean | number;
  createdAt: number;
  status: BidStatus;
  reason: string | null;
  /** Its auction's end (as soft close moved it), settlement and cancel policy: what a list of the bidder's bids says of cancelling each. */
  auctionValidUntil: number;
  auctionSettledAt: number | null;
  auctionCancelPolicy: CancelPolicy;
}

export interface ProductBidView {
  id: number;
  auctionId: string;
  amount: number;
  status: BidStatus;
  createdAt: number;
  username: string;
  auctionOwner: number;
  buyNow: boolean | number;
}

/** An auction the scheduler watches: not settled, not deleted. */
export interface OpenAuction {
  id: string;
  validUntil: number;
  ownerId: number;
}

/** One entry of a lot's history: a bid, or (`auto`) an automatic raise of the maximum bid `bidId`. */
export interface LotHistoryView {
  bidId: number;
  amount: number;
  status: BidStatus;
  createdAt: number;
  userId: number;
  username: string;
  auto: boolean;
  /** A purchase at the buy-now price (never an automatic raise). */
  buyNow: boolean;
  /** The bidder's number on the lot: 1, 2, 3… in the order of their first bid there. */
  alias: number | null;
}

/** Where an entry stands in a lot's history (its order: amount, time, auto, bid id; all descending). */
export interface LotHistoryKey {
  amount: number;
  createdAt: number;
  auto: boolean;
  bidId: number;
}

/** What a unit of work reads and writes of lots and their bids; part of UnitOfWork (store.ts). */
export interface LotsWork {
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
  /** Resolves false when the user was registered already. */
  register(auctionId: string, userId: number, now: number): Promise<boolean>;
  /** Who follows the live lots of an auction (only `productIds` when given): bidders (bids that did not fail there) and, with `savers`, those who saved them. One row per user and lot, by user then lot. */
  followersOf(auctionId: string, opts?: { productIds?: readonly string[]; savers?: boolean }): Promise<Follower[]>;
}
