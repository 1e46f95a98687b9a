// The admin dashboard's public surface: the page, which the app's route composes with other features' parts.
export { AdminDashboardPage } from './components/AdminDashboardPage';
export type { AdminDashboardPageProps, DashboardDialogProps } from './components/AdminDashboardPage';
