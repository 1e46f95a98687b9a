/**
 * The bidder's chunk (router.tsx loads it on demand): the bidder's shell with the features it
 * composes, and every page inside it. Visitors get it too (Browse and lot pages are public).
 */
import { AppShell } from './layout/AppShell';
import { FeatureSlots } from './feature-slots';

export { LotPage } from '../features/auctions';
export { BrowseAuctionsPage } from '../features/auctions/components/BrowseAuctionsPage';
export { SearchPage } from '../features/search';
export { UserDashboardPage } from '../features/dashboard/components/UserDashboardPage';
export { MyBidsPage } from '../features/bids/components/MyBidsPage';
export { SavedPage } from '../features/saved/components/SavedPage';
export { WalletPage } from '../features/wallet/components/WalletPage';
export { AccountPage } from '../features/settings/components/AccountPage';

/** The bidder's header and sidebar, with the saved feature's star handed to the lot rows and lot page. */
export function UserShell() {
  return (
    <FeatureSlots>
      <AppShell portal="user" />
    </FeatureSlots>
  );
}
