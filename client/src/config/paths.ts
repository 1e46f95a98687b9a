import type { IconName } from '../components/ui/Icon';

/** Every route of the app in one typed table; components never spell paths themselves. */
export const paths = {
  home: '/',
  /** A lot's own page (photos, history, bid form); notifications link here (docs/notifications.md). */
  lot: '/auctions/:auctionId/products/:productId',
  user: {
    login: '/user/login',
    register: '/user/register',
    dashboard: '/user/dashboard',
    auctions: '/user/auctions',
    search: '/user/search',
    bids: '/user/bids',
    saved: '/user/saved',
    wallet: '/user/wallet',
    /** The bidder's own details: email address, email notices, password. */
    account: '/user/account',
    forgotPassword: '/user/forgot-password',
  },
  admin: {
    login: '/admin/login',
    register: '/admin/register',
    dashboard: '/admin/dashboard',
    auctions: '/admin/auctions',
    products: '/admin/products',
    categories: '/admin/categories',
    users: '/admin/users',
    reports: '/admin/reports',
    /** The house's profile: seller of record, payout account, pickup locations. */
    house: '/admin/house',
    settings: '/admin/settings',
    auctionDetail: '/admin/auctions/:auctionId',
    forgotPassword: '/admin/forgot-password',
  },
  /**
   * The pages the links in our emails open (docs/email.md): public, each with `?token=…`. The token says
   * nothing of the portal, so they belong to neither.
   */
  email: {
    resetPassword: '/reset-password',
    verify: '/verify-email',
    unsubscribe: '/unsubscribe',
    /** Mailed to the confirmed address an email change replaced (`&portal=admin` for an admin). */
    undo: '/undo-email',
  },
} as const;

export function adminAuctionPath(auctionId: string): string {
  return `/admin/auctions/${encodeURIComponent(auctionId)}`;
}

/** Browse Auctions with an auction's products open and one of its lots brought into view. */
export function browseLotPath(auctionId: string, productId?: string): string {
  const q = new URLSearchParams({ auction: auctionId });
  if (productId) q.set('lot', productId);
  return `${paths.user.auctions}?${q.toString()}`;
}

/** The Search page for lots, looking for `q`. */
export function searchPath(q: string): string {
  return `${paths.user.search}?${new URLSearchParams({ q }).toString()}`;
}

/** A lot's own page. */
export function lotPath(auctionId: string, productId: string): string {
  return `/auctions/${encodeURIComponent(auctionId)}/products/${encodeURIComponent(productId)}`;
}

export type Portal = 'user' | 'admin';

/** A signed-in page: its header title and, when it appears in the sidebar, its label and icon. */
export interface PageRoute {
  path: string;
  title: string;
  nav?: { label: string; icon: IconName; ownerOnly?: boolean };
  /** The admin auction detail page shows an empty sidebar. */
  emptySidebar?: boolean;
  /** A page without a sidebar entry of its own, shown as part of this entry's section (a lot within Browse). */
  section?: string;
  /** Open to visitors who have not signed in (Browse, lot pages): the shell shows Sign in and Register. */
  public?: boolean;
}

export const portalTitle: Record<Portal, string> = { user: 'User Portal', admin: 'Admin Portal' };

export const pageRoutes: Record<Portal, readonly PageRoute[]> = {
  user: [
    { path: paths.user.dashboard, title: 'Dashboard', nav: { label: 'Dashboard', icon: 'dashboard' } },
    { path: paths.user.auctions, title: 'Browse Auctions', nav: { label: 'Browse Auctions', icon: 'gavel' }, public: true },
    { path: paths.user.bids, title: 'My Bids', nav: { label: 'My Bids', icon: 'bids' } },
    { path: paths.user.saved, title: 'Saved', nav: { label: 'Saved', icon: 'star' } },
    { path: paths.user.wallet, title: 'Wallet', nav: { label: 'Wallet', icon: 'wallet' } },
    { path: paths.user.account, title: 'Account', nav: { label: 'Account', icon: 'user' } },
    { path: paths.lot, title: 'Lot', section: paths.user.auctions, public: true },
    { path: paths.user.search, title: 'Search', section: paths.user.auctions, public: true },
  ],
  admin: [
    { path: paths.admin.dashboard, title: 'Admin Dashboard', nav: { label: 'Dashboard', icon: 'dashboard' } },
    { path: paths.admin.auctions, title: 'Manage Auctions', nav: { label: 'Manage Auctions', icon: 'gavel' } },
    { path: paths.admin.products, title: 'Manage Products', nav: { label: 'Manage Products', icon: 'box' } },
    { path: paths.admin.categories, title: 'Categories', nav: { label: 'Categories', icon: 'tag' } },
    // Routed for every admin (others see why not), listed only for the platform owner.
    { path: paths.admin.users, title: 'Users', nav: { label: 'Users', icon: 'users', ownerOnly: true } },
    { path: paths.admin.reports, title: 'Reports', nav: { label: 'Reports', icon: 'chart' } },
    { path: paths.admin.house, title: 'House Profile', nav: { label: 'House', icon: 'house' } },
    { path: paths.admin.settings, title: 'Settings', nav: { label: 'Settings', icon: 'settings' } },
    { path: paths.admin.auctionDetail, title: 'Auction Details', emptySidebar: true },
  ],
};
