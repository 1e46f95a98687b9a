import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../components/ui/toast/Toaster';
import { lastSocket, reconnect } from '../test/fake-socket';
import { LocationProbe, jsonResponse, resetAppState, sampleAdmin } from '../test/utils';
import { useSession } from '../lib/session';
import { useLive } from '../lib/live';
import { useAdminAuctions } from '../features/admin-auctions';
import { makeAdminAuction, routeFetch } from '../features/admin-auctions/testing';
import { AdminDashboardRoute } from './AdminDashboardRoute';

vi.mock('socket.io-client', () => import('../test/fake-socket'));

const STATS = { total_auctions: 7, active_auctions: 3, total_products: 12, unassigned_products: 4, total_bids: 25, revenue: 150000, pending: 2500 };

function renderPage({ strict = false } = {}) {
  const tree = (
    <MemoryRouter initialEntries={['/admin/dashboard']}>
      <Routes>
        <Route path="/admin/dashboard" element={<AdminDashboardRoute />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
      <Toaster />
    </MemoryRouter>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}

const stat = (label: string) => screen.getByText(label).parentElement!.querySelector('.stat-value')!.textContent;
const auctions = Array.from({ length: 6 }, (_, i) => makeAdminAuction({ id: `AUC-${i + 1}`, name: `Auction ${i + 1}` }));

describe('the admin dashboard (AdminDashboardRoute)', () => {
  beforeEach(() => {
    resetAppState();
    useAdminAuctions.getState().reset();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'tok' });
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    useAdminAuctions.getState().reset();
    resetAppState();
  });

  it('welcomes the admin, shows the six numbers and the first five auctions, which open the detail page', async () => {
    routeFetch({ 'GET /api/admin/stats': [jsonResponse(200, STATS)], 'GET /api/admin/auctions/my': [jsonResponse(200, auctions)] });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Welcome, Ravi Kumar' })).toBeTruthy();
    await waitFor(() => expect(stat('Total Auctions')).toBe('7'));
    expect([stat('Active Auctions'), stat('Total Products'), stat('Unassigned Products'), stat('Total Bids'), stat('Revenue')])
      .toEqual(['3', '12', '4', '25', '₹1,50,000']);
    expect(screen.getByText('₹2,500 pending')).toBeTruthy();

    const recent = await screen.findAllByRole('link', { name: /Auction \d/ });
    expect(recent.map((a) => a.querySelector('.adm-recent-name')?.textContent)).toEqual(['Auction 1', 'Auction 2', 'Auction 3', 'Auction 4', 'Auction 5']);
    fireEvent.click(recent[1]!);
    expect(screen.getByTestId('location').textContent).toBe('/admin/auctions/AUC-2');
  });

  it('falls back to Admin and toasts when the stats fail', async () => {
    useSession.setState({ admin: { ...sampleAdmin, name: '' } });
    routeFetch({ 'GET /api/admin/stats': [jsonResponse(500, { error: 'boom', code: 'UNAVAILABLE' })], 'GET /api/admin/auctions/my': [jsonResponse(200, [])] });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Welcome, Admin' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('status').some((t) => t.textContent?.includes('Failed to load dashboard stats.'))).toBe(true));
  });

  it('still toasts a failed first read under StrictMode (whose first mount is aborted)', async () => {
    // Like a browser: an aborted request rejects at once, the network answers later.
    vi.stubGlobal('fetch', vi.fn((url: string, init?: RequestInit) => new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      setTimeout(() => resolve(url.endsWith('/admin/stats') ? jsonResponse(500, { error: 'boom', code: 'UNAVAILABLE' }) : jsonResponse(200, [])), 20);
    })));
    renderPage({ strict: true });
    await waitFor(() => expect(screen.getAllByRole('status').some((t) => t.textContent?.includes('Failed to load dashboard stats.'))).toBe(true));
  });

  it('View Reports goes to /admin/reports', async () => {
    routeFetch({ 'GET /api/admin/stats': [jsonResponse(200, STATS)], 'GET /api/admin/auctions/my': [jsonResponse(200, [])] });
    renderPage();
    fireEvent.click(screen.getByRole('link', { name: /^View Reports\b/ }));
    expect(screen.getByTestId('location').textContent).toBe('/admin/reports');
  });

  it('Add Product refuses an incomplete form, then adds the product and refreshes the numbers', async () => {
    const api = routeFetch({
      'GET /api/admin/stats': [jsonResponse(200, STATS), jsonResponse(200, { ...STATS, total_products: 13, unassigned_products: 5 })],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'POST /api/admin/product': [jsonResponse(201, { message: 'Product created', product: {} })],
    });
    renderPage();
    await waitFor(() => expect(stat('Total Products')).toBe('12'));
    fireEvent.click(screen.getByRole('button', { name: /^Add Product\b/ }));
    const dialog = screen.getByRole('dialog', { name: 'Add Product' });
    fireEvent.change(within(dialog).getByLabelText('Product ID'), { target: { value: 'vase-1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Please fill all fields');
    expect(api.calls('POST /api/admin/product')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Ming Vase' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Blue and white' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(screen.getAllByRole('status').some((t) => t.textContent?.includes('Product created'))).toBe(true));
    expect(api.body('POST /api/admin/product')).toEqual({ id: 'vase-1', name: 'Ming Vase', description: 'Blue and white' });
    await waitFor(() => expect(stat('Total Products')).toBe('13'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Create Auction opens the create modal', async () => {
    routeFetch({ 'GET /api/admin/stats': [jsonResponse(200, STATS)], 'GET /api/admin/auctions/my': [jsonResponse(200, [])], 'GET /api/admin/products/unassigned': [jsonResponse(200, [])] });
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: /^Create Auction\b/ }));
    expect(screen.getByRole('dialog', { name: 'Create Auction' })).toBeTruthy();
    expect(await screen.findByText('No unassigned products available')).toBeTruthy();
  });

  it('reads the numbers and the auctions again after a reconnect, not on the first connect', async () => {
    const api = routeFetch({
      'GET /api/admin/stats': [jsonResponse(200, STATS), jsonResponse(200, { ...STATS, total_bids: 31 })],
      'GET /api/admin/auctions/my': [jsonResponse(200, auctions.slice(1)), jsonResponse(200, auctions)],
    });
    renderPage();
    await waitFor(() => expect(stat('Total Bids')).toBe('25'));
    const recent = () => screen.queryAllByRole('link', { name: /Auction \d/ }).map((a) => a.querySelector('.adm-recent-name')?.textContent);
    await waitFor(() => expect(recent()[0]).toBe('Auction 2'));
    useLive.getState().connect('tok');
    act(() => lastSocket().open());
    await new Promise((r) => setTimeout(r, 10));
    expect(api.calls('GET /api/admin/stats')).toHaveLength(1);
    expect(api.calls('GET /api/admin/auctions/my')).toHaveLength(1);

    act(() => reconnect());
    await waitFor(() => expect(stat('Total Bids')).toBe('31'));
    await waitFor(() => expect(recent()[0]).toBe('Auction 1'));
    expect(api.calls('GET /api/admin/stats')).toHaveLength(2);
  });
});
