/** The portals' pages as chunks fetched on demand: the wait, the pages after it, and a chunk that never comes. */
import { Suspense } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Spinner } from '../components/ui/Spinner';
import { jsonResponse, resetAppState, routeFetch, sampleUser } from '../test/utils';
import { PageLoadBoundary } from './PageLoadBoundary';
import { lazyPortal, PageLoadError, type LazyPortal } from './portal-loader';
import { AppProviders } from './providers';
import { AppRoutes } from './router';

vi.mock('socket.io-client', () => import('../test/fake-socket'));

const pages = {
  First: () => <h1>First page</h1>,
  Second: () => <h1>Second page</h1>,
};

/** A portal whose chunk arrives (or fails) when the test says. */
function controlledPortal() {
  let settle!: { resolve: (m: typeof pages) => void; reject: (e: unknown) => void };
  const load = vi.fn(() => new Promise<typeof pages>((resolve, reject) => { settle = { resolve, reject }; }));
  return { portal: lazyPortal(load), load, settle: () => settle };
}

/**
 * Rendered inside an awaited act: React 19 queues the retry of a component that suspended in a
 * synchronous act (RTL's render) on that act's queue, which nothing flushes once it has returned.
 */
async function renderPortal(portal: LazyPortal<typeof pages>, path = '/first') {
  const First = portal.page('First');
  const Second = portal.page('Second');
  const ui = (
    <MemoryRouter initialEntries={[path]}>
      <Link to="/home">Home</Link>
      <Link to="/second">Second</Link>
      <PageLoadBoundary>
        <Suspense fallback={<Spinner fullPage />}>
          <Routes>
            <Route path="/home" element={<h1>Home</h1>} />
            <Route path="/first" element={<First />} />
            <Route path="/second" element={<Second />} />
          </Routes>
        </Suspense>
      </PageLoadBoundary>
    </MemoryRouter>
  );
  await act(async () => {
    render(ui);
  });
}

describe('a portal loaded on demand', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('is not fetched until one of its pages renders', async () => {
    const { portal, load } = controlledPortal();
    await renderPortal(portal, '/home');
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(load).not.toHaveBeenCalled();
  });

  it('shows the Loading… status until its chunk is in, then every page of it without another wait', async () => {
    const { portal, load, settle } = controlledPortal();
    await renderPortal(portal);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    await act(async () => settle().resolve(pages));
    // React shows content that replaces a fallback a beat later (its reveal throttle): wait for it.
    expect(await screen.findByRole('heading', { name: 'First page' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();

    fireEvent.click(screen.getByRole('link', { name: 'Second' }));
    expect(screen.getByRole('heading', { name: 'Second page' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a chunk that fails (gone after a deploy) shows why and a Reload, not a blank page', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { portal, load, settle } = controlledPortal();
    await renderPortal(portal);
    await act(async () => settle().reject(new TypeError('Failed to fetch dynamically imported module: /assets/admin-portal-x.js')));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This page could not be loaded');
    expect(alert.textContent).toContain('Reload to get the latest version');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);

    // Another page of the app still works, and the failed chunk is not fetched again in a loop.
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    await expect(portal.preload()).rejects.toBeInstanceOf(PageLoadError);
  });
});

describe('the app’s routes', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('a bidder’s page waits for the bidder’s chunk behind Loading…, then opens in its shell', async () => {
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 100, on_hold: 0 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [], next_before: null, totals: { topup: 0, bid: 0, refund: 0, count: 0, spent: 0 } })],
      'GET /api/notifications?limit=20': [jsonResponse(200, { notifications: [], unread: 0 })],
    });
    await act(async () => {
      render(
        <MemoryRouter initialEntries={['/user/wallet']}>
          <AppProviders>
            <AppRoutes />
          </AppProviders>
        </MemoryRouter>,
      );
    });
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    // The first import of the chunk's modules transforms them: slow in a test run, quick in a browser.
    expect(await screen.findByRole('heading', { level: 1, name: 'Wallet' }, { timeout: 25_000 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull());
    expect(screen.getByRole('navigation', { name: 'User Portal' })).toBeTruthy();
  }, 30_000);
});
