/**
 * Sign in and come back: a visitor who tries to bid, save or register is sent to the login page with
 * the page they were on in the router state (`{ from }`), and the login and register pages send them
 * back there once signed in. Only a path of the same portal is followed, never another site.
 */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { paths, type Portal } from '../../config/paths';
import { navigateTo } from '../api-client';

export interface ReturnState {
  /** The path (with its query) to come back to. */
  from?: string;
}

/** Pages never worth coming back to: the sign-in pages themselves and the pages our emails' links open. */
const AUTH_PAGES: readonly string[] = [
  paths.user.login, paths.user.register, paths.user.forgotPassword,
  paths.admin.login, paths.admin.register, paths.admin.forgotPassword,
  ...Object.values(paths.email),
];

/** The in-app path a login or register page should return to, or null when there is none to trust. */
export function returnPath(state: unknown, portal: Portal): string | null {
  const from = typeof state === 'object' && state !== null ? (state as ReturnState).from : undefined;
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.includes('\\')) return null;
  const path = from.split(/[?#]/, 1)[0]!;
  if (AUTH_PAGES.includes(path) || path === paths.home) return null;
  const adminPage = path === '/admin' || path.startsWith('/admin/');
  return (portal === 'admin') === adminPage ? from : null;
}

/** Where to go after signing in: back to the page the visitor came from, else the portal's dashboard. */
export function afterSignIn(state: unknown, portal: Portal): string {
  return returnPath(state, portal) ?? paths[portal].dashboard;
}

/** A call that takes a visitor to the bidder's login page, to come back here once signed in. */
export function useSignInToContinue(): () => void {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return useCallback(() => {
    const state: ReturnState = { from: `${pathname}${search}` };
    void navigate(paths.user.login, { state });
  }, [navigate, pathname, search]);
}

/** The same from a store's action (no component at hand): back to the page shown now. */
export function signInToContinue(): void {
  const state: ReturnState = { from: `${window.location.pathname}${window.location.search}` };
  navigateTo(paths.user.login, { state });
}
