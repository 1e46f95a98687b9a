import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { Spinner } from '../components/ui/Spinner';
import {
  ForgotPasswordPage, LoginPage, RegisterPage, RequireSession, ResetPasswordPage, SessionReady, UndoEmailPage, UnsubscribePage, VerifyEmailPage,
} from '../features/auth';
import { LandingPage } from '../features/landing/components/LandingPage';
import { paths } from '../config/paths';
import { PageLoadBoundary } from './PageLoadBoundary';
import { lazyPortal } from './portal-loader';

/**
 * The bidder's and the admin's pages are chunks of their own, fetched when a page of theirs first
 * renders: the landing, sign-in and email-link pages stay small (at most 120 KiB of compressed
 * JavaScript, e2e/bundles.test.ts), and a bidder never downloads the admin's pages.
 */
export const bidderPortal = lazyPortal(() => import('./bidder-portal'));
export const adminPortal = lazyPortal(() => import('./admin-portal'));

const UserShell = bidderPortal.page('UserShell');
const LotPage = bidderPortal.page('LotPage');
const BrowseAuctionsPage = bidderPortal.page('BrowseAuctionsPage');
const SearchPage = bidderPortal.page('SearchPage');
const UserDashboardPage = bidderPortal.page('UserDashboardPage');
const MyBidsPage = bidderPortal.page('MyBidsPage');
const SavedPage = bidderPortal.page('SavedPage');
const WalletPage = bidderPortal.page('WalletPage');
const AccountPage = bidderPortal.page('AccountPage');

const AdminShell = adminPortal.page('AdminShell');
const AdminDashboardRoute = adminPortal.page('AdminDashboardRoute');
const ManageAuctionsPage = adminPortal.page('ManageAuctionsPage');
const ManageProductsPage = adminPortal.page('ManageProductsPage');
const CategoriesPage = adminPortal.page('CategoriesPage');
const UsersPage = adminPortal.page('UsersPage');
const ReportsPage = adminPortal.page('ReportsPage');
const HousePage = adminPortal.page('HousePage');
const SettingsPage = adminPortal.page('SettingsPage');
const AuctionDetailPage = adminPortal.page('AuctionDetailPage');

/** Every page's route (paths.ts); rendered inside a BrowserRouter by App and a MemoryRouter by tests. */
export function AppRoutes() {
  return (
    <PageLoadBoundary>
      {/* Entering a portal: the session spinner's look while its chunk arrives (navigations are transitions, so a page already shown stays until then). */}
      <Suspense fallback={<Spinner fullPage />}>
        <Routes>
          <Route path={paths.home} element={<LandingPage />} />
          <Route path={paths.user.login} element={<LoginPage portal="user" />} />
          <Route path={paths.user.register} element={<RegisterPage portal="user" />} />
          <Route path={paths.admin.login} element={<LoginPage portal="admin" />} />
          <Route path={paths.admin.register} element={<RegisterPage portal="admin" />} />
          <Route path={paths.user.forgotPassword} element={<ForgotPasswordPage portal="user" />} />
          <Route path={paths.admin.forgotPassword} element={<ForgotPasswordPage portal="admin" />} />
          {/* The pages our emails link to: public, the link's token is the proof (docs/email.md). */}
          <Route path={paths.email.resetPassword} element={<ResetPasswordPage />} />
          <Route path={paths.email.verify} element={<VerifyEmailPage />} />
          <Route path={paths.email.unsubscribe} element={<UnsubscribePage />} />
          <Route path={paths.email.undo} element={<UndoEmailPage />} />

          {/* The bidder's shell, also for visitors: Browse and lot pages are public (a shared link opens the lot). */}
          <Route element={<SessionReady />}>
            <Route element={<UserShell />}>
              {/* A lot's own page, where notices and saved lots link (inside the shell: the live connection stays). */}
              <Route path={paths.lot} element={<LotPage />} />
              <Route path={paths.user.auctions} element={<BrowseAuctionsPage />} />
              <Route path={paths.user.search} element={<SearchPage />} />
              <Route element={<RequireSession kind="user" />}>
                <Route path={paths.user.dashboard} element={<UserDashboardPage />} />
                <Route path={paths.user.bids} element={<MyBidsPage />} />
                <Route path={paths.user.saved} element={<SavedPage />} />
                <Route path={paths.user.wallet} element={<WalletPage />} />
                <Route path={paths.user.account} element={<AccountPage />} />
              </Route>
            </Route>
          </Route>

          {/* The guard first: a visitor is sent to the login page without fetching the admin's chunk. */}
          <Route element={<RequireSession kind="admin" />}>
            <Route element={<AdminShell />}>
              <Route path={paths.admin.dashboard} element={<AdminDashboardRoute />} />
              <Route path={paths.admin.auctions} element={<ManageAuctionsPage />} />
              <Route path={paths.admin.products} element={<ManageProductsPage />} />
              <Route path={paths.admin.categories} element={<CategoriesPage />} />
              <Route path={paths.admin.users} element={<UsersPage />} />
              <Route path={paths.admin.reports} element={<ReportsPage />} />
              <Route path={paths.admin.house} element={<HousePage />} />
              <Route path={paths.admin.settings} element={<SettingsPage />} />
              <Route path={paths.admin.auctionDetail} element={<AuctionDetailPage />} />
            </Route>
          </Route>

          <Route path="*" element={<Navigate to={paths.home} replace />} />
        </Routes>
      </Suspense>
    </PageLoadBoundary>
  );
}
