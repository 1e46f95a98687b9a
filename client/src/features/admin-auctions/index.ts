// The admin auctions feature's public surface: the dashboard reuses the store, the API and the create modal.
export { AuctionFormModal } from './components/AuctionFormModal';
export { useAdminAuctions } from './store/admin-auctions-store';
export type { AdminAuctionsState } from './store/admin-auctions-store';
export { adminApi } from './api/admin-api';
export { DEFAULT_DURATION_DAYS, auctionStatus } from './lib/forms';
