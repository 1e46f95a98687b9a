// The auth feature's public surface: other features and the app shell import from here only.
export { useSession } from './store/session-store';
export type { SessionState } from './store/session-store';
export { RequireSession } from './components/RequireSession';
export { LoginPage } from './components/LoginPage';
export { RegisterPage } from './components/RegisterPage';
