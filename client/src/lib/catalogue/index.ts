// The catalogue (auctions and their products) every bidder feature shows, with its live folding and rules.
export {
  auctionProducts, knownProducts, rereadProducts, useAuctionProducts, useExtensions, patchProduct, PRODUCTS_FAILED, PRODUCTS_RELOAD_MS,
} from './catalogue-store';
export type { AuctionReadOptions } from './catalogue-store';
export {
  applyLiveEvent, applyToAuctions, applyToProducts, needsProductsRead, productsAuctionOf, upsertAuction, AUCTION_LIST_EVENTS, PRODUCT_EVENTS,
} from './live-reducers';
export { auctionFactsChange, AUCTION_FACTS_EVENTS } from './auction-facts';
export type { AuctionFacts, AuctionFactsEvent, KnownAuction } from './auction-facts';
export type { AuctionListEvent, AuctionsData, ProductEvent } from './live-reducers';
export { catalogueApi } from './catalogue-api';
export { categoriesChanged, categoriesQuery } from './categories';
export type { BidAsk } from './catalogue-api';
export * from './rules';
export {
  BROWSE_PAGE_SIZE, auctionById, browseApi, browseCardsOptions, browseKey, cardChange, cardsOf, markAuctionRegistered, markCardRegistered, patchBrowsePages,
  useAuctionById,
} from './browse-store';
export type { BrowsePages, BrowseParams } from './browse-store';
