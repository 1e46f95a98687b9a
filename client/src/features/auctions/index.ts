// The auctions feature's public surface: the browse page, and the resources and hooks other pages
// (My Bids, the live notifications) reuse.
export { BrowseAuctionsPage } from './components/BrowseAuctionsPage';
export { auctionList, auctionProducts, knownProducts, useAuctionActions, useAuctionList, useAuctionProducts } from './store/auctions-store';
export type { AuctionActionsState, AuctionReadOptions } from './store/auctions-store';
export { lotPage } from './store/lot-store';
export { applyLiveEvent, applyToProducts, productsAuctionOf, upsertAuction } from './store/live-reducers';
export type { AuctionsData } from './store/live-reducers';
export { filterAuctions, checkBid, isEnded, bidAction, standingOf } from './lib/rules';
