import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { registerNavigate } from '../../../lib/api-client';
import { jsonResponse, mockFetch, resetAppState, sampleAdmin } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import type { Reports } from '@auction/shared';
import { ReportsPage } from './ReportsPage';

const data: Reports = {
  auctions: [
    { id: 'A1', name: 'Spring Sale', valid_until: '2026-03-01T10:00:00.000Z', status: 'settled', product_count: 2, bid_count: 3, revenue: 1500, pending: 0 },
    { id: 'A 2', name: 'Live Art', valid_until: '2030-04-01T10:00:00.000Z', status: 'active', product_count: 1, bid_count: 1, revenue: 0, pending: 250 },
  ],
  products: [
    { id: 'P1', name: '=Vase', description: 'Blue, "glass"', status: 'sold', auction_id: 'A1', bid_count: 2, highest_bid: 1500 },
  ],
};

const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);
const stat = (label: string) => screen.getByText(label, { selector: '.stat-label' }).parentElement!.querySelector('.stat-value')!.textContent;

function renderPage() {
  return render(<MemoryRouter><ReportsPage /></MemoryRouter>);
}

describe('ReportsPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'admin-token' });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows the numbers, the chart and both tabs from one GET /admin/reports', async () => {
    const fetchMock = mockFetch(jsonResponse(200, data));
    renderPage();
    expect(await screen.findByRole('link', { name: 'A1' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/admin/reports');
    expect(stat('Total Auctions')).toBe('2');
    expect(stat('Active Auctions')).toBe('1');
    expect(stat('Total Products')).toBe('1');
    expect(stat('Revenue')).toBe('₹1,500');
    expect(stat('Pending')).toBe('₹250');
    expect(screen.getByRole('link', { name: 'A 2' }).getAttribute('href')).toBe('/admin/auctions/A%202');
    expect(screen.getByRole('img', { name: 'Spring Sale: revenue ₹1,500, pending ₹0' })).toBeTruthy();
    const row = screen.getByRole('link', { name: 'A1' }).closest('tr')!;
    expect(within(row).getByText('Settled')).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: /Product Reports/ }));
    expect(screen.getByText('=Vase')).toBeTruthy();
    expect(screen.getByText('Sold')).toBeTruthy();
  });

  it('exports the current tab as a formula-safe CSV with the spec toast', async () => {
    const blobs: Blob[] = [];
    const names: string[] = [];
    vi.stubGlobal('URL', Object.assign(Object.create(URL) as typeof URL, {
      createObjectURL: (b: Blob) => { blobs.push(b); return 'blob:test'; },
      revokeObjectURL: () => undefined,
    }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { names.push(this.download); });
    mockFetch(jsonResponse(200, data));
    renderPage();
    await screen.findByRole('link', { name: 'A1' });

    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(names).toEqual(['auctions-report.csv']);
    expect(toasts()).toContain('success: CSV file generated.');

    fireEvent.click(screen.getByRole('tab', { name: /Product Reports/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(names).toEqual(['auctions-report.csv', 'products-report.csv']);
    const text = new TextDecoder().decode(await blobs[1]!.arrayBuffer());
    expect(text).toBe('id,name,description,status,auction_id,bid_count,highest_bid\r\nP1,\'=Vase,"Blue, ""glass""",sold,A1,2,1500');
    click.mockRestore();
  });

  it('toasts the failure and offers a retry that reloads', async () => {
    const fetchMock = mockFetch(jsonResponse(500, {}), jsonResponse(200, data));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load report data');
    expect(toasts()).toContain('error: Failed to load report data');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' }).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'A1' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Refresh/ }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
  });

  it('stays quiet when a 401 ends the session', async () => {
    // A 401 ends the session only for a call that carried a token.
    localStorage.setItem('admin_token', 'admin-token');
    const navigate = vi.fn();
    registerNavigate(navigate);
    mockFetch(jsonResponse(401, { error: 'Please sign in', message: 'Please sign in', code: 'UNAUTHENTICATED' }));
    renderPage();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/', { replace: true }));
    await screen.findByRole('alert');
    expect(toasts()).toEqual([]);
  });
});
