/** The paged public catalogue (docs/catalogue.md): lot search, one page at a time with keyset cursors. */
import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { PageLimit, X_ERROR } from './common.js';
import { CategoryRef } from './categories.js';

/** Longest search text. */
export const SEARCH_QUERY_MAX = 200;
/** Lots per page by default. */
export const LOT_PAGE_DEFAULT = 24;
/** `total` counts matches up to this many; past it, it says this many and one more. */
export const SEARCH_TOTAL_MAX = 1000;

export const LOT_SORTS = ['relevance', 'ending', 'price_asc', 'price_desc', 'bids'] as const;
export type LotSort = (typeof LOT_SORTS)[number];

/** A price filter in rupees, as text (query strings are text): at most 2 decimals. */
const PriceText = (field: string) => Type.String({
  maxLength: 13, pattern: '^[0-9]{1,10}(?:\\.[0-9]{1,2})?$', [X_ERROR]: `${field} must be an amount in rupees with at most 2 decimals`,
});

export const LotSearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: SEARCH_QUERY_MAX, [X_ERROR]: `q must be at most ${SEARCH_QUERY_MAX} characters`, description: 'Words to find in a lot’s name and description and its auction’s name, all required (stems match: "lamps" finds "Lamp")' })),
  category: Type.Optional(Type.String({ maxLength: 60, [X_ERROR]: 'category must be a category id or slug', description: 'A category id or slug; its subcategories are included' })),
  auction_id: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.idMax, [X_ERROR]: `auction_id must be 1–${LIMITS.idMax} characters` })),
  min_price: Type.Optional(PriceText('min_price')),
  max_price: Type.Optional(PriceText('max_price')),
  buy_now: Type.Optional(Type.Literal('1', { [X_ERROR]: 'buy_now must be 1', description: 'Only lots that can be bought now' })),
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('ended')], { [X_ERROR]: 'status must be open or ended', description: 'open (default): on sale now; ended: sold or in an auction that ended' })),
  sort: Type.Optional(Type.Union(LOT_SORTS.map((s) => Type.Literal(s)), { [X_ERROR]: `sort must be one of ${LOT_SORTS.join(', ')}`, description: 'Default: relevance with q, else ending' })),
  limit: Type.Optional(PageLimit(LOT_PAGE_DEFAULT)),
  cursor: Type.Optional(Type.String({ maxLength: 400, [X_ERROR]: 'cursor must be the next_cursor of the page before', description: 'The next_cursor of the page before' })),
});
export type LotSearchQuery = Static<typeof LotSearchQuery>;

export const LotCard = Type.Object({
  id: Type.String(),
  lot_number: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  cover: Type.Union([Type.Object({ url: Type.String(), thumb_url: Type.String() }), Type.Null()], { description: 'Its first photo' }),
  highest_bid: Type.Number({ description: 'Rupees; 0 when there is no bid' }),
  min_next_bid: Type.Number({ description: 'Rupees' }),
  bid_count: Type.Integer(),
  buy_now_price: Type.Union([Type.Number(), Type.Null()], { description: 'Rupees; null when there is none or it is no longer available' }),
  category: Type.Union([CategoryRef, Type.Null()]),
  auction: Type.Object({ id: Type.String(), name: Type.String(), valid_until: Type.String() }),
});
export type LotCard = Static<typeof LotCard>;

export const LotSearchPage = Type.Object({
  items: Type.Array(LotCard),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Where the next page starts; null on the last page' }),
  total: Type.Integer({ description: `How many lots match, counted up to ${SEARCH_TOTAL_MAX} (past it, ${SEARCH_TOTAL_MAX + 1})` }),
});
export type LotSearchPage = Static<typeof LotSearchPage>;

/** Auctions per page by default. */
export const AUCTION_PAGE_DEFAULT = 24;
export const AUCTION_TABS = ['active', 'ending', 'ended'] as const;
export const AUCTION_SORTS = ['ending', 'newest', 'bids'] as const;
export type AuctionTab = (typeof AUCTION_TABS)[number];
export type AuctionSort = (typeof AUCTION_SORTS)[number];

export const AuctionSearchQuery = Type.Object({
  tab: Type.Optional(Type.Union(AUCTION_TABS.map((t) => Type.Literal(t)), { [X_ERROR]: `tab must be one of ${AUCTION_TABS.join(', ')}`, description: 'active (default): open; ending: open and ending within 24 hours; ended: over or settled' })),
  q: Type.Optional(Type.String({ maxLength: SEARCH_QUERY_MAX, [X_ERROR]: `q must be at most ${SEARCH_QUERY_MAX} characters`, description: 'Auctions with a lot that matches every word (its name, description or the auction’s name)' })),
  category: Type.Optional(Type.String({ maxLength: 60, [X_ERROR]: 'category must be a category id or slug', description: 'Auctions with a lot in this category or its subcategories' })),
  registered: Type.Optional(Type.Literal('1', { [X_ERROR]: 'registered must be 1', description: 'Only auctions the calling bidder registered for (none without a bidder’s token)' })),
  sort: Type.Optional(Type.Union(AUCTION_SORTS.map((s) => Type.Literal(s)), { [X_ERROR]: `sort must be one of ${AUCTION_SORTS.join(', ')}`, description: 'ending (default: soonest first; in the ended tab, most recently ended first), newest, bids' })),
  limit: Type.Optional(PageLimit(AUCTION_PAGE_DEFAULT)),
  cursor: Type.Optional(Type.String({ maxLength: 400, [X_ERROR]: 'cursor must be the next_cursor of the page before', description: 'The next_cursor of the page before' })),
});
export type AuctionSearchQuery = Static<typeof AuctionSearchQuery>;

export const AuctionCard = Type.Object({
  id: Type.String(),
  name: Type.String(),
  valid_until: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('ended'), Type.Literal('settled')]),
  product_count: Type.Integer(),
  bid_count: Type.Integer(),
  highest_bid: Type.Number({ description: 'Rupees; 0 when no lot has a bid' }),
  cover: Type.Union([Type.Object({ url: Type.String(), thumb_url: Type.String() }), Type.Null()]),
  registered: Type.Boolean({ description: 'Whether the calling bidder registered; false without a bidder’s token' }),
});
export type AuctionCard = Static<typeof AuctionCard>;

export const AuctionSearchPage = Type.Object({
  items: Type.Array(AuctionCard),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Where the next page starts; null on the last page' }),
  counts: Type.Object({ active: Type.Integer(), ending: Type.Integer(), ended: Type.Integer() }, { description: 'Auctions in each tab under the same filters' }),
});
export type AuctionSearchPage = Static<typeof AuctionSearchPage>;
