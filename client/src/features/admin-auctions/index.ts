// The admin auctions feature's public surface: the app's dashboard route takes its recent-auctions card and its create dialog.
export { AuctionFormModal } from './components/AuctionFormModal';
export { RecentAuctions } from './components/RecentAuctions';
export { useAdminAuctions } from './store/admin-auctions-store';
export type { AdminAuctionsState } from './store/admin-auctions-store';
