import { useEffect, useId, useState } from 'react';
import { Link, Outlet, matchPath, useLocation, useNavigate } from 'react-router-dom';
import { Icon } from '../../components/ui/Icon';
import { useSession, type ReturnState } from '../../lib/session';
import { LiveConnection, LiveIndicator, NewVersionNotice } from '../../features/live';
import { LiveNotifications, NotificationsBell } from '../../features/notifications';
import { HeaderSearch } from '../../features/search';
import { pageRoutes, paths, portalTitle } from '../../config/paths';
import type { PageRoute, Portal } from '../../config/paths';
import { Sidebar } from './Sidebar';
import './shell.css';

function currentPage(portal: Portal, pathname: string): PageRoute | undefined {
  return pageRoutes[portal].find((page) => matchPath({ path: page.path, end: true }, pathname));
}

/** Header (page title, the bidder's search box and notifications bell, name, Admin badge, Logout) + sidebar around every signed-in page. */
export function AppShell({ portal }: { portal: Portal }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const name = useSession((s) => (portal === 'user' ? s.user?.name : s.admin?.name));
  const isOwner = useSession((s) => s.admin?.is_owner === true);
  const logout = useSession((s) => s.logout);
  const token = useSession((s) => (portal === 'user' ? s.userToken : s.adminToken));
  // A visitor on a public page (Browse, a shared lot link): no account, no live connection.
  const visitor = useSession((s) => (portal === 'user' ? s.user === null : s.admin === null));
  const [menuOpen, setMenuOpen] = useState(false);
  const sidebarId = useId();

  const page = currentPage(portal, pathname);
  const title = page?.title ?? portalTitle[portal];
  const items = page?.emptySidebar
    ? []
    : pageRoutes[portal].filter((p) => p.nav && (!visitor || p.public) && (!p.nav.ownerOnly || (portal === 'admin' && isOwner)));

  useEffect(() => {
    document.title = `${title} · Auction Platform`;
  }, [title]);

  // A navigation closes the mobile drawer.
  useEffect(() => setMenuOpen(false), [pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  function onLogout() {
    logout();
    void navigate(paths.home, { replace: true });
  }

  const displayName = name || (portal === 'admin' ? 'Admin' : 'User');
  return (
    <div className={`shell shell-${portal}${menuOpen ? ' shell-menu-open' : ''}`}>
      <Sidebar id={sidebarId} title={portalTitle[portal]} items={items} section={page?.section} />
      <button
        type="button"
        className="shell-scrim"
        aria-label="Close menu"
        tabIndex={-1}
        onClick={() => setMenuOpen(false)}
      />
      <div className="shell-main">
        <header className="shell-header">
          {items.length > 0 && (
            <button
              type="button"
              className="icon-btn shell-menu-btn"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls={sidebarId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <Icon name={menuOpen ? 'close' : 'menu'} />
            </button>
          )}
          <h1 className="shell-title">{title}</h1>
          {portal === 'user' && <HeaderSearch />}
          {/* Also for visitors: it keeps the clock the countdowns read ticking (no token, no connection). */}
          <LiveConnection token={visitor ? null : token} />
          {visitor ? (
            <div className="shell-account shell-visitor">
              <Link to={paths.user.login} state={{ from: `${pathname}${search}` } satisfies ReturnState} className="btn btn-primary btn-sm">Sign in</Link>
              <Link to={paths.user.register} state={{ from: `${pathname}${search}` } satisfies ReturnState} className="btn btn-outline btn-sm shell-register">Register</Link>
            </div>
          ) : (
            <ShellAccount portal={portal} displayName={displayName} onLogout={onLogout} />
          )}
        </header>
        <NewVersionNotice />
        <main className="shell-content">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

interface ShellAccountProps {
  portal: Portal;
  displayName: string;
  onLogout: () => void;
}

/** The signed-in side of the header: the bidder's live notices and bell, the name and Logout. */
function ShellAccount({ portal, displayName, onLogout }: ShellAccountProps) {
  return (
    <>
      {portal === 'user' && <LiveNotifications />}
      <div className="shell-account">
        <LiveIndicator />
        {portal === 'user' && <NotificationsBell />}
        <span className="avatar" aria-hidden="true">{displayName.charAt(0).toUpperCase()}</span>
        <span className="shell-who">
          <span className="shell-name">{displayName}</span>
          {portal === 'admin' && <span className="badge badge-admin">Admin</span>}
        </span>
        <button type="button" className="btn btn-outline btn-sm shell-logout" onClick={onLogout} aria-label="Logout" title="Logout">
          <Icon name="logout" size={16} />
          <span>Logout</span>
        </button>
      </div>
    </>
  );
}
