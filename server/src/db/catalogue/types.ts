/** The catalogue: auctions, products and categories as they are created and listed: the types. */
import type { AuctionRow, CategoryRow, IncrementRule, ProductRow, ProductStatus } from '../rows.js';

import type { LotSearchKey } from '../search/lot-search.js';

/** A product to create: without prices it starts at 0 with no reserve or buy-now; without a category it is in none. */
export type NewProduct = { id: string; name: string; description: string; createdBy: number; now: number } & Partial<Pick<ProductRow, 'startingPrice' | 'reservePrice' | 'buyNowPrice' | 'gstPct' | 'categoryId'>>;

/** An auction as the catalogue lists it: its stored terms (AuctionRow), its lots and what its card shows. */
export interface AuctionView extends Pick<AuctionRow,
  'id' | 'name' | 'validUntil' | 'originalValidUntil' | 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'softCloseS' | 'maxExtensionS'
  | 'buyerPremiumBp' | 'premiumGstPct' | 'createdBy' | 'createdAt' | 'settledAt'> {
  productIds: string[];
  registrations: number[];
  /** Browse's card: the cover of its first product, in product order, that has a photo; null when none has one. */
  cover: { imageName: string; thumbName: string } | null;
  /** Paise: the highest leading (or, once sold, winning) bid among its lots; 0 when none has one. */
  highest: number;
  /** The sum of its lots' bid counts. */
  bidCount: number;
}

export interface ProductView {
  id: string;
  name: string;
  description: string;
  status: ProductStatus;
  auctionId: string | null;
  /** Paise: the leading (or winning) bid, 0 when none. */
  highest: number;
  /** Whether it has a leading or winning bid. */
  hasBid: boolean;
  bidCount: number;
  version: number;
  createdBy: number;
  /** Paise. */
  startingPrice: number;
  reservePrice: number | null;
  buyNowPrice: number | null;
  /** The all-in terms (docs/money.md#all-in-prices): the lot's GST, its auction's premium (0 while in none) and GST on it. */
  gstPct: number;
  buyerPremiumBp: number;
  premiumGstPct: number;
  /** Its auction's steps (flat ₹1 when unassigned; see AuctionRow) and whether that auction is over (ended or settled). */
  incrementRule: IncrementRule;
  incrementAmount: number;
  incrementTiers: string | null;
  auctionOver: boolean;
  /** Its auction's name, end and settlement; null while it is in none. */
  auctionName: string | null;
  auctionValidUntil: number | null;
  auctionSettledAt: number | null;
  /** The username of the bidder who won or bought it (`winner_id`), null when none. */
  winner: string | null;
  /** Its photos in order (the first is the cover). */
  images: ProductImageView[];
  /** Its category (docs/catalogue.md), null when in none. */
  category: CategoryRef | null;
  /** Its number in its auction (docs/catalogue.md#lot-numbers); null while in none. */
  lotNumber: number | null;
}

/** A category as a product shows it. */
export interface CategoryRef {
  id: number;
  name: string;
  slug: string;
}

/** A category with the number of open lots in it (for a top-level one, its subcategories' included). */
export interface CategoryView extends CategoryRef {
  parentId: number | null;
  openLots: number;
}

/** A product photo as stored: the media names of its renditions. */
export interface ProductImageView {
  id: number;
  imageName: string;
  thumbName: string;
}

/** What `adminProductPage` reads: `status` unassigned (in no auction), assigned (in one, not sold) or sold. */
export interface AdminProductPageFilter {
  adminId: number;
  nameLike: string | null;
  status: 'unassigned' | 'assigned' | 'sold' | null;
  categoryIds: number[] | null;
  after: LotSearchKey | null;
  /** Products per page. */
  limit: number;
}

export interface AdminProductHit {
  product: ProductView;
  auctionName: string | null;
  /** Its place in the order: created_at, id. */
  key: LotSearchKey;
}

/** What a unit of work reads and writes of the catalogue; part of UnitOfWork (store.ts). */
export interface CatalogueWork {
  /** Whether an auction id was ever used (ids of deleted auctions stay reserved). */
  auctionIdTaken(id: string): Promise<boolean>;
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
  insertAuction(row: { id: string; name: string; validUntil: number; createdBy: number; now: number } & Partial<Pick<AuctionRow, 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'softCloseS' | 'maxExtensionS' | 'buyerPremiumBp' | 'premiumGstPct'>>): Promise<AuctionRow | null>;
  /**
   * Numbers an auction's live lots (docs/catalogue.md#lot-numbers): afresh in listing order (creation)
   * while it has no bid that did not fail; once it has one, only lots without a number, after the highest.
   */
  numberLots(auctionId: string): Promise<void>;
}
