import { AuctionFormModal, RecentAuctions } from '../features/admin-auctions';
import { AdminDashboardPage } from '../features/admin-dashboard';
import { ProductFormModal } from '../features/admin-products';

/** /admin/dashboard: the dashboard with the admin auctions' card and Create Auction, and the products' Add Product. */
export function AdminDashboardRoute() {
  return (
    <AdminDashboardPage
      recentAuctions={<RecentAuctions />}
      createAuction={(dialog) => <AuctionFormModal mode="create" {...dialog} />}
      addProduct={(dialog) => <ProductFormModal {...dialog} />}
    />
  );
}
