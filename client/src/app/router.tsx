import { Navigate, Route, Routes } from 'react-router-dom';
import { AuctionDetailPage } from '../features/admin-auctions/components/AuctionDetailPage';
import { ManageAuctionsPage } from '../features/admin-auctions/components/ManageAuctionsPage';
import { CategoriesPage } from '../features/admin-categories';
import { ManageProductsPage } from '../features/admin-products/components/ManageProductsPage';
import { UsersPage } from '../features/admin-users/components/UsersPage';
import { BrowseAuctionsPage } from '../features/auctions/components/BrowseAuctionsPage';
import { LotPage } from '../features/auctions';
import {
  ForgotPasswordPage, LoginPage, RegisterPage, RequireSession, ResetPasswordPage, SessionReady, UnsubscribePage, VerifyEmailPage,
} from '../features/auth';
import { MyBidsPage } from '../features/bids/components/MyBidsPage';
import { UserDashboardPage } from '../features/dashboard/components/UserDashboardPage';
import { LandingPage } from '../features/landing/components/LandingPage';
import { ReportsPage } from '../features/reports/components/ReportsPage';
import { SavedPage } from '../features/saved/components/SavedPage';
import { SearchPage } from '../features/search';
import { AccountPage } from '../features/settings/components/AccountPage';
import { SettingsPage } from '../features/settings/components/SettingsPage';
import { WalletPage } from '../features/wallet/components/WalletPage';
import { AdminDashboardRoute } from './AdminDashboardRoute';
import { AppShell } from './layout/AppShell';
import { paths } from '../config/paths';

/** Every page's route (paths.ts); rendered inside a BrowserRouter by App and a MemoryRouter by tests. */
export function AppRoutes() {
  return (
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

      {/* The bidder's shell, also for visitors: Browse and lot pages are public (a shared link opens the lot). */}
      <Route element={<SessionReady />}>
        <Route element={<AppShell portal="user" />}>
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

      <Route element={<RequireSession kind="admin" />}>
        <Route element={<AppShell portal="admin" />}>
          <Route path={paths.admin.dashboard} element={<AdminDashboardRoute />} />
          <Route path={paths.admin.auctions} element={<ManageAuctionsPage />} />
          <Route path={paths.admin.products} element={<ManageProductsPage />} />
          <Route path={paths.admin.categories} element={<CategoriesPage />} />
          <Route path={paths.admin.users} element={<UsersPage />} />
          <Route path={paths.admin.reports} element={<ReportsPage />} />
          <Route path={paths.admin.settings} element={<SettingsPage />} />
          <Route path={paths.admin.auctionDetail} element={<AuctionDetailPage />} />
        </Route>
      </Route>

      <Route path="*" element={<Navigate to={paths.home} replace />} />
    </Routes>
  );
}
