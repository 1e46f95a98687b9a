/** The catalogue's search (docs/catalogue.md#search): the types. */
import type { ProductView } from '../catalogue/types.js';
import type { LotSearchKey } from './lot-search.js';

export interface LotSearchHit {
  product: ProductView;
  auction: { id: string; name: string; validUntil: number };
  key: LotSearchKey;
}

/** The paged auctions of the catalogue (docs/catalogue.md#paged-auctions). */
export interface AuctionSearch {
  /** active: open; ending: open and ending within `endingWithin` ms; ended: past its end or settled. */
  tab: 'active' | 'ending' | 'ended';
  /** Auctions with a live lot that matches every word (the lot's words and the auction's name); null: any. */
  words: readonly string[] | null;
  /** Auctions with a live lot in one of these categories; null: any. */
  categoryIds: readonly number[] | null;
  /** Only auctions this bidder registered for; null: any. */
  registeredBy: number | null;
  sort: 'ending' | 'newest' | 'bids';
  after: LotSearchKey | null;
  limit: number;
  now: number;
  endingWithin: number;
}

/** The filters of `AuctionSearch` that its counts per tab obey, and the clock they are counted at. */
export type AuctionCountsFilter = Pick<AuctionSearch, 'words' | 'categoryIds' | 'registeredBy' | 'now' | 'endingWithin'>;

/** How many auctions are in each tab of the paged catalogue. */
export interface AuctionTabCounts {
  active: number;
  ending: number;
  ended: number;
}
