import { useEffect, useLayoutEffect } from 'react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Toaster } from '../components/ui/toast/Toaster';
import { useToasts } from '../components/ui/toast/toast-store';
import { useSession } from '../lib/session';
import { registerNavigate } from '../lib/api-client';
import { isSessionKey } from '../lib/session-storage';

/** Session hydration, the API client's navigate hook and the toaster; must sit inside the router. */
export function AppProviders({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const hydrate = useSession((s) => s.hydrate);
  const acknowledgeEnd = useSession((s) => s.acknowledgeEnd);

  // Before the first paint, so a stored session never flashes the spinner.
  useLayoutEffect(() => hydrate(), [hydrate]);

  useEffect(() => {
    registerNavigate((to, options) => void navigate(to, options));
    return () => registerNavigate(null);
  }, [navigate]);

  // Home reached after a logout or 401: from now on guards send visitors to the login pages again.
  useEffect(() => {
    if (pathname === '/') acknowledgeEnd();
  }, [pathname, acknowledgeEnd]);

  // Toasts do not outlive the page they belong to (the one a navigation brings stays).
  useEffect(() => {
    useToasts.getState().leavePage();
  }, [pathname]);

  // Another tab logged in or out: follow it.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (isSessionKey(e.key)) hydrate();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [hydrate]);

  return (
    <>
      {children}
      <Toaster />
    </>
  );
}
