/** The admin's chunk (router.tsx loads it on demand, once an admin session opens a page): the admin's shell and pages. */
import { AppShell } from './layout/AppShell';

export { AdminDashboardRoute } from './AdminDashboardRoute';
export { AuctionDetailPage } from '../features/admin-auctions/components/AuctionDetailPage';
export { ManageAuctionsPage } from '../features/admin-auctions/components/ManageAuctionsPage';
export { ManageProductsPage } from '../features/admin-products/components/ManageProductsPage';
export { CategoriesPage } from '../features/admin-categories';
export { HousePage } from '../features/admin-house';
export { UsersPage } from '../features/admin-users/components/UsersPage';
export { ReportsPage } from '../features/reports/components/ReportsPage';
export { SettingsPage } from '../features/settings/components/SettingsPage';

export function AdminShell() {
  return <AppShell portal="admin" />;
}
