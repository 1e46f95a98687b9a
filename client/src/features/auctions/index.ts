// The auctions feature's public surface: the browse page, and the store other pages (the dashboard) reuse.
export { BrowseAuctionsPage } from './components/BrowseAuctionsPage';
export { useAuctions } from './store/auctions-store';
export type { AuctionsState, LoadStatus } from './store/auctions-store';
export { applyLiveEvent, upsertAuction } from './store/live-reducers';
export type { AuctionsData } from './store/live-reducers';
export { filterAuctions, checkBid, isEnded, bidAction } from './lib/rules';
