import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSession } from '../lib/session';
import { api } from '../lib/api-client';
import { LocationProbe, jsonResponse, mockFetch, resetAppState, routeFetch, sampleAdmin, sampleUser } from '../test/utils';
import { AppProviders } from './providers';
import { AppRoutes, adminPortal, bidderPortal } from './router';

function renderApp(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}

function signInUser() {
  localStorage.setItem('token', 'u-tok');
  localStorage.setItem('user', JSON.stringify(sampleUser));
}

function signInAdmin(isOwner: boolean) {
  localStorage.setItem('admin_token', 'a-tok');
  localStorage.setItem('admin', JSON.stringify({ ...sampleAdmin, is_owner: isOwner }));
}

// The portals' chunks in before the first render, so pages render at once as they would without the split (lazy-pages.test.tsx covers the wait).
beforeAll(() => Promise.all([bidderPortal.preload(), adminPortal.preload()]));

describe('routes', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it.each(['/nowhere', '/user', '/admin/auctions/A1/extra', '/user/dashboard/x'])('redirects unknown path %s to /', (path) => {
    renderApp(path);
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(screen.getByText('Professional auction platform for seamless bidding and comprehensive administrative control.')).toBeTruthy();
  });

  it('shows both portal cards with their four actions on the landing page', () => {
    renderApp('/');
    const user = screen.getByRole('article', { name: 'User Portal' });
    const admin = screen.getByRole('article', { name: 'Admin Portal' });
    expect(within(user).getByRole('link', { name: 'Login as User' }).getAttribute('href')).toBe('/user/login');
    expect(within(user).getByRole('link', { name: 'Register as User' }).getAttribute('href')).toBe('/user/register');
    expect(within(admin).getByRole('link', { name: 'Login as Admin' }).getAttribute('href')).toBe('/admin/login');
    expect(within(admin).getByRole('link', { name: 'Register as Admin' }).getAttribute('href')).toBe('/admin/register');
    for (const feature of ['Real-time bidding', 'Secure transactions', 'User management with role-based access']) {
      expect(screen.getByRole('heading', { name: feature })).toBeTruthy();
    }
  });

  it('hydrates a stored user session and shows the user shell', () => {
    signInUser();
    renderApp('/user/dashboard');
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Welcome, Asha Rao' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'User Portal' });
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Dashboard', 'Browse Auctions', 'My Bids', 'Saved', 'Wallet', 'Account']);
    expect(screen.queryByText('Admin', { selector: '.badge' })).toBeNull();
  });

  it('gives each user page its title', () => {
    signInUser();
    renderApp('/user/bids');
    expect(screen.getByRole('heading', { level: 1, name: 'My Bids' })).toBeTruthy();
  });

  it('lists Saved in the user sidebar and opens the Saved page at /user/saved', async () => {
    signInUser();
    mockFetch(jsonResponse(200, []));
    renderApp('/user/dashboard');
    const saved = within(screen.getByRole('navigation', { name: 'User Portal' })).getByRole('link', { name: 'Saved' });
    expect(saved.getAttribute('href')).toBe('/user/saved');
    fireEvent.click(saved);
    expect(screen.getByTestId('location').textContent).toBe('/user/saved');
    expect(screen.getByRole('heading', { level: 1, name: 'Saved' })).toBeTruthy();
    expect(await screen.findByText('No saved lots yet — tap the star on any lot to keep it here')).toBeTruthy();
  });

  it('opens Account from the user sidebar at /user/account, and only with a session', async () => {
    renderApp('/user/account');
    expect(screen.getByTestId('location').textContent).toBe('/user/login');
    cleanup();
    resetAppState();

    signInUser();
    routeFetch({
      'GET /api/me': [jsonResponse(200, { role: 'user', ...sampleUser, email: null, email_verified: false })],
      'GET /api/me/notification-settings': [jsonResponse(200, { email_verified: false, email: { outbid: true, won: true, lost: false, reinstated: false, ending_soon: true, extended: false, unsold: false, bought_now: false } })],
    });
    renderApp('/user/dashboard');
    const account = within(screen.getByRole('navigation', { name: 'User Portal' })).getByRole('link', { name: 'Account' });
    expect(account.getAttribute('href')).toBe('/user/account');
    fireEvent.click(account);
    expect(screen.getByRole('heading', { level: 1, name: 'Account' })).toBeTruthy();
    expect(await screen.findByText(/No email address yet/)).toBeTruthy();
  });

  it.each([
    ['/user/forgot-password', 'Forgot your password?'],
    ['/admin/forgot-password', 'Forgot your password?'],
    ['/reset-password?token=abc', 'Reset your password'],
    ['/unsubscribe?token=abc', 'Stop these emails?'],
    ['/verify-email', 'Confirm your email address'],
    ['/undo-email?token=abc', 'Undo the email change?'],
  ])('opens %s without a session', (path, heading) => {
    renderApp(path);
    expect(screen.getByTestId('location').textContent).toBe(path.split('?')[0]);
    expect(screen.getByRole('heading', { level: 1, name: heading })).toBeTruthy();
  });

  it('lists Users in the admin sidebar only for the owner', () => {
    signInAdmin(false);
    renderApp('/admin/dashboard');
    let nav = screen.getByRole('navigation', { name: 'Admin Portal' });
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual([
      'Dashboard', 'Manage Auctions', 'Manage Products', 'Categories', 'Reports', 'House', 'Settings',
    ]);
    expect(screen.getByRole('heading', { name: 'Welcome, Ravi Kumar' })).toBeTruthy();
    expect(screen.getByText('Admin', { selector: '.badge' })).toBeTruthy();
    cleanup();

    signInAdmin(true);
    renderApp('/admin/users');
    nav = screen.getByRole('navigation', { name: 'Admin Portal' });
    expect(within(nav).getByRole('link', { name: 'Users' }).getAttribute('href')).toBe('/admin/users');
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeTruthy();
  });

  it('welcomes an admin without a name as Admin', () => {
    localStorage.setItem('admin_token', 'a-tok');
    localStorage.setItem('admin', JSON.stringify({ ...sampleAdmin, name: '' }));
    renderApp('/admin/dashboard');
    expect(screen.getByRole('heading', { name: 'Welcome, Admin' })).toBeTruthy();
  });

  it('gives the auction detail page an empty sidebar', () => {
    signInAdmin(true);
    renderApp('/admin/auctions/A-1');
    expect(screen.getByRole('heading', { level: 1, name: 'Auction Details' })).toBeTruthy();
    expect(screen.getByText('Admin Portal')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open menu' })).toBeNull();
  });

  it('logs out: clears the four keys and returns to /', () => {
    signInUser();
    signInAdmin(false);
    renderApp('/admin/settings');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(screen.getByTestId('location').textContent).toBe('/');
    for (const key of ['token', 'admin_token', 'user', 'admin']) expect(localStorage.getItem(key)).toBeNull();
  });

  it('a 401 on a signed-in page ends the session and lands on /', async () => {
    signInUser();
    renderApp('/user/wallet');
    expect(screen.getByRole('heading', { level: 1, name: 'Wallet' })).toBeTruthy();
    mockFetch(jsonResponse(401, { error: 'Unauthenticated', message: 'Unauthenticated', code: 'UNAUTHENTICATED' }));

    await act(async () => {
      await api.post('/wallet', { username: 'asha' }, { as: 'user' }).catch(() => undefined);
    });

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('after a logout lands on /, guards point at the login pages again', async () => {
    signInUser();
    renderApp('/user/wallet');
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(screen.getByTestId('location').textContent).toBe('/');
    // Home reached: the "session ended" redirect is spent, guards point at login pages again.
    await waitFor(() => expect(useSession.getState().sessionEnded).toBe(false));
  });

  it('toggles the sidebar drawer with the menu button', () => {
    signInUser();
    const { container } = renderApp('/user/wallet');
    const menu = screen.getByRole('button', { name: 'Open menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menu);
    expect(container.querySelector('.shell-menu-open')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Close menu', expanded: true })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('navigation', { name: 'User Portal' })).getByRole('link', { name: 'My Bids' }));
    expect(screen.getByTestId('location').textContent).toBe('/user/bids');
    expect(container.querySelector('.shell-menu-open')).toBeNull();
  });
});
