// The auth feature's public surface: the guard, the login and register pages, and the public pages of
// account access by email (forgot and reset password, confirm an address, unsubscribe) that share their
// card (the session store is infrastructure every feature uses: lib/session).
export { RequireSession, SessionReady } from './components/RequireSession';
export { LoginPage } from './components/LoginPage';
export { RegisterPage } from './components/RegisterPage';
export { ForgotPasswordPage } from './components/ForgotPasswordPage';
export { ResetPasswordPage } from './components/ResetPasswordPage';
export { VerifyEmailPage } from './components/VerifyEmailPage';
export { UnsubscribePage } from './components/UnsubscribePage';
export { UndoEmailPage } from './components/UndoEmailPage';
