/** `live:hello` with another protocol than this build's: the shell says a new version is out, once. */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { LIVE_PROTOCOL_VERSION } from '@auction/shared';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLive } from '../lib/live';
import { lastSocket } from '../test/fake-socket';
import { jsonResponse, resetAppState, routeFetch, sampleUser } from '../test/utils';
import { AppProviders } from './providers';
import { AppRoutes, bidderPortal } from './router';

vi.mock('socket.io-client', () => import('../test/fake-socket'));

function renderWallet() {
  localStorage.setItem('token', 'u-tok');
  localStorage.setItem('user', JSON.stringify(sampleUser));
  routeFetch({
    'POST /api/wallet': [jsonResponse(200, { wallet_balance: 100, on_hold: 0 })],
    'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [], next_before: null, totals: { topup: 0, bid: 0, refund: 0, count: 0, spent: 0 } })],
    'GET /api/notifications?limit=20': [jsonResponse(200, { notifications: [], unread: 0 })],
  });
  return render(
    <MemoryRouter initialEntries={['/user/wallet']}>
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </MemoryRouter>,
  );
}

const notice = () => screen.queryByRole('alert');

// The bidder's chunk in before the first render (lazy-pages.test.tsx covers the wait).
beforeAll(() => bidderPortal.preload());

describe('a new version of the app', () => {
  beforeEach(() => {
    resetAppState();
    useLive.setState({ outdated: 'no' });
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    resetAppState();
  });

  it('says nothing when the server speaks this build’s protocol', async () => {
    renderWallet();
    await waitFor(() => expect(lastSocket()).toBeTruthy());
    act(() => lastSocket().open());
    act(() => lastSocket().hello(LIVE_PROTOCOL_VERSION));
    expect(notice()).toBeNull();
  });

  it('offers a Reload when the protocol differs, once: dismissed, a later hello does not bring it back', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderWallet();
    await waitFor(() => expect(lastSocket()).toBeTruthy());
    act(() => lastSocket().open());
    act(() => lastSocket().hello(LIVE_PROTOCOL_VERSION + 1));
    expect(notice()?.textContent).toContain('A new version of the app is available');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(notice()).toBeNull();
    act(() => lastSocket().hello(LIVE_PROTOCOL_VERSION + 1));
    expect(notice()).toBeNull();
  });
});
