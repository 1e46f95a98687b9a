/** The bell in the shell (bidders only) and the route every notice links to. */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOW, inHours, makeAuction, makeProduct } from '../features/auctions/test/fixtures';
import { useLive } from '../lib/live';
import { makeNotice } from '../features/notifications/testing';
import { sockets } from '../test/fake-socket';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin, sampleUser, setServerNow } from '../test/utils';
import { AppProviders } from './providers';
import { AppRoutes, adminPortal, bidderPortal } from './router';

vi.mock('socket.io-client', () => import('../test/fake-socket'));

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{`${pathname}${search}`}</div>;
}

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

const location = () => screen.getByTestId('location').textContent;
const coins = makeAuction({ id: 'OLD-3', name: 'Rare Coins', valid_until: inHours(-1), status: 'ended', registered: true, product_ids: ['C-1'] });
const notice = makeNotice({ id: 7, kind: 'won', title: 'You won Gold Mohur', body: 'Paid from your wallet.', link: '/auctions/OLD-3/products/C-1' });

const gold = makeProduct({ id: 'C-1', name: 'Gold Mohur', auction_id: 'OLD-3', highest_bid: 900, bid_count: 1, status: 'sold', my_status: 'won' });

function bidderRoutes() {
  return routeFetch({
    'GET /api/notifications?limit=20': [jsonResponse(200, { notifications: [notice], unread: 1 })],
    'POST /api/notifications/read': [jsonResponse(200, { unread: 0 })],
    'GET /api/auctions/OLD-3/products': [jsonResponse(200, [gold])],
    'GET /api/products/C-1': [jsonResponse(200, { ...gold, auction: coins, bids: [
      { bid_id: 41, amount: 900, status: 'success', state: 'won', timestamp: inHours(-2), bidder: 'You', auto: false },
    ] })],
  });
}

// The portals' chunks in before the first render (lazy-pages.test.tsx covers the wait).
beforeAll(() => Promise.all([bidderPortal.preload(), adminPortal.preload()]));

describe('notifications in the app', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    resetAppState();
  });

  it('a bidder’s header has the bell with the unread count', async () => {
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    bidderRoutes();
    renderApp('/user/wallet');
    const header = screen.getByRole('banner');
    await waitFor(() => expect(within(header).getByRole('button', { name: 'Notifications, 1 unread' })).toBeTruthy());
  });

  it('an admin’s header has no bell', () => {
    localStorage.setItem('admin_token', 'a-tok');
    localStorage.setItem('admin', JSON.stringify(sampleAdmin));
    const fetch = routeFetch({});
    renderApp('/admin/dashboard');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(fetch.calls('GET /api/notifications?limit=20')).toHaveLength(0);
  });

  it('a notice’s lot link opens the lot’s page, inside the bidder’s shell with Browse as its section', async () => {
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    bidderRoutes();
    renderApp('/auctions/OLD-3/products/C-1');
    expect(location()).toBe('/auctions/OLD-3/products/C-1');
    expect(screen.getByRole('heading', { level: 1, name: 'Lot' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Gold Mohur' })).toBeTruthy();
    expect(screen.getByText('You won')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse Auctions' }).className).toContain('active');
    expect(screen.getByRole('link', { name: 'Dashboard' }).className).not.toContain('active');
  });

  it('following a notice from the bell marks it read and opens its lot', async () => {
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    const fetch = bidderRoutes();
    renderApp('/user/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    const socketsBefore = sockets.length;
    fireEvent.click(bell);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Notifications' })).getByRole('link', { name: /You won Gold Mohur/ }));
    expect(fetch.body('POST /api/notifications/read')).toEqual({ ids: [7] });
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Gold Mohur' })).toBeTruthy());
    expect(location()).toBe('/auctions/OLD-3/products/C-1');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy());
    // The lot page is inside the shell: its live connection and the bell's feed stay as they were.
    expect(sockets.length).toBe(socketsBefore);
    expect(fetch.calls('GET /api/notifications?limit=20')).toHaveLength(1);
  });

  it('a visitor following a shared lot link sees the lot, not a login wall; bidding asks them to sign in and brings them back', async () => {
    const open = makeAuction({ id: 'OPEN-1', name: 'Old Maps', valid_until: inHours(5), registered: false, product_ids: ['M-1'] });
    const map = makeProduct({ id: 'M-1', name: 'Map of Bengal', auction_id: 'OPEN-1', highest_bid: 0, bid_count: 0, my_status: null });
    const fetch = routeFetch({
      'GET /api/auctions/OPEN-1/products': [jsonResponse(200, [map])],
      'GET /api/products/M-1': [jsonResponse(200, { ...map, auction: open, bids: [] })],
      'POST /api/login': [jsonResponse(200, { token: 'u-tok', user: sampleUser })],
      'GET /api/notifications?limit=20': [jsonResponse(200, { notifications: [], unread: 0 })],
    });
    setServerNow(NOW);
    renderApp('/auctions/OPEN-1/products/M-1?ref=share');
    expect(await screen.findByRole('heading', { level: 2, name: 'Map of Bengal' })).toBeTruthy();
    expect(location()).toBe('/auctions/OPEN-1/products/M-1?ref=share');
    // No account in the header, no calls that need one, only the public pages in the menu.
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Wallet' })).toBeNull();
    expect(fetch.calls('GET /api/auctions')).toHaveLength(0);
    expect(fetch.calls('GET /api/notifications?limit=20')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Sign in to bid' }));
    expect(location()).toBe('/user/login');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'asha' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
    fireEvent.click(screen.getByRole('button', { name: /login|sign in/i }));
    await waitFor(() => expect(location()).toBe('/auctions/OPEN-1/products/M-1?ref=share'));
    expect(await screen.findByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('a visitor opening a bidder’s own page is asked to sign in, and lands there after', async () => {
    routeFetch({
      'POST /api/login': [jsonResponse(200, { token: 'u-tok', user: sampleUser })],
      'GET /api/notifications?limit=20': [jsonResponse(200, { notifications: [], unread: 0 })],
    });
    renderApp('/user/saved?sort=ending');
    expect(location()).toBe('/user/login');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'asha' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret-pass' } });
    fireEvent.click(screen.getByRole('button', { name: /login|sign in/i }));
    await waitFor(() => expect(location()).toBe('/user/saved?sort=ending'));
  });
});
