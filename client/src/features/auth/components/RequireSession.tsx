import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { Spinner } from '../../../components/ui/Spinner';
import { paths } from '../../../config/paths';
import { useSession, type ReturnState } from '../../../lib/session';

interface RequireSessionProps {
  kind: 'user' | 'admin';
  /** Rendered when signed in; nested routes (an <Outlet/>) otherwise. */
  children?: ReactNode;
}

/**
 * Protection: a spinner while the stored session loads, then the matching login page when
 * there is no session of the required kind. A user session does not open admin pages, nor the reverse.
 */
export function RequireSession({ kind, children }: RequireSessionProps) {
  const ready = useSession((s) => s.ready);
  const signedIn = useSession((s) => (kind === 'user' ? s.user !== null : s.admin !== null));
  const sessionEnded = useSession((s) => s.sessionEnded);
  const location = useLocation();

  if (!ready) return <Spinner label="Loading your session…" fullPage />;
  // After a logout or a 401 the visitor goes to `/`, not to a login page.
  if (!signedIn && sessionEnded) return <Navigate to={paths.home} replace />;
  if (!signedIn) return <Navigate to={paths[kind].login} replace state={{ from: `${location.pathname}${location.search}` } satisfies ReturnState} />;
  return children ?? <Outlet />;
}

/** Public pages that still differ for a signed-in bidder: a spinner until the stored session has loaded. */
export function SessionReady() {
  const ready = useSession((s) => s.ready);
  if (!ready) return <Spinner label="Loading your session…" fullPage />;
  return <Outlet />;
}
