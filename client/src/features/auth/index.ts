// The auth feature's public surface: the guard and the login and register pages (the session store is
// infrastructure every feature uses: lib/session).
export { RequireSession, SessionReady } from './components/RequireSession';
export { LoginPage } from './components/LoginPage';
export { RegisterPage } from './components/RegisterPage';
