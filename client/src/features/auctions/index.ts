// The auctions feature's public surface: the browse page and the lot page. The catalogue they show
// (the auction list, each auction's products, the live reducers and the rules) is lib/catalogue.
export { BrowseAuctionsPage } from './components/BrowseAuctionsPage';
export { useAuctionActions } from './store/auctions-store';
export type { AuctionActionsState } from './store/auctions-store';
export { LotPage } from './components/LotPage';
export { LotStarSlot } from './components/lot-slots';
export type { LotStar } from './components/lot-slots';
