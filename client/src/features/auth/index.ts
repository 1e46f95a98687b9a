// The auth feature's public surface: the guard and the login and register pages. The session store is
// infrastructure in lib/session; it is re-exported here only for the admin pages, which still import it
// from this feature.
export { useSession } from '../../lib/session';
export type { SessionState } from '../../lib/session';
export { RequireSession } from './components/RequireSession';
export { LoginPage } from './components/LoginPage';
export { RegisterPage } from './components/RegisterPage';
