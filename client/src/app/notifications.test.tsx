/** The bell in the shell (bidders only) and the route every notice links to. */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inHours, makeAuction, makeProduct } from '../features/auctions/test/fixtures';
import { useLive } from '../lib/live';
import { makeNotice } from '../features/notifications/testing';
import { sockets } from '../test/fake-socket';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin, sampleUser } from '../test/utils';
import { AppProviders } from './providers';
import { AppRoutes } from './router';

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
    'GET /api/auctions': [jsonResponse(200, [coins])],
    'GET /api/auctions/OLD-3/products': [jsonResponse(200, [gold])],
    'GET /api/products/C-1': [jsonResponse(200, { ...gold, auction: coins, bids: [
      { bid_id: 41, amount: 900, status: 'won', timestamp: inHours(-2), bidder: 'You', auto: false },
    ] })],
  });
}

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

  it('a signed-out visitor following a lot link is asked to sign in as a bidder', () => {
    routeFetch({});
    renderApp('/auctions/OLD-3/products/C-1');
    expect(location()).toBe('/user/login');
  });
});
