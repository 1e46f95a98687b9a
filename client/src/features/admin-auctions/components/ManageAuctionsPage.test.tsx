import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { useSession } from '../../../lib/session';
import { injectLiveEvent } from '../../../lib/live';
import { formatDateTime, formatDateTimeSeconds } from '../../../lib/format';
import { resetServerData } from '../../../lib/live-query';
import { jsonResponse, resetAppState, sampleAdmin } from '../../../test/utils';
import { useAdminAuctions } from '../store/admin-auctions-store';
import { liveSummary, makeAdminAuction, makeProduct, routeFetch } from '../testing';
import { CONFIRM_SETTLE } from '../lib/settle';
import { CONFIRM_DELETE, ManageAuctionsPage } from './ManageAuctionsPage';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/admin/auctions']}>
      <Routes>
        <Route path="/admin/auctions" element={<ManageAuctionsPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Toaster />
    </MemoryRouter>,
  );
}

async function toastWith(text: string) {
  await waitFor(() => expect(screen.getAllByRole('status').some((t) => t.textContent?.includes(text))).toBe(true));
}

const rowOf = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

const open = makeAdminAuction({ id: 'AUC-1', name: 'Spring Sale', product_count: 2 });
const settled = makeAdminAuction({ id: 'AUC-2', name: 'Winter Sale', status: 'settled', valid_until: '2026-01-01T10:00:00.000Z' });

describe('ManageAuctionsPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'tok' });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('lists id, name, end date, product count and status; a settled auction cannot be settled, edited or deleted', async () => {
    routeFetch({ 'GET /api/admin/auctions/my': [jsonResponse(200, [open, settled])] });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });

    const live = rowOf('Spring Sale');
    expect(within(live).getByText('AUC-1')).toBeTruthy();
    expect(within(live).getByText('2')).toBeTruthy();
    expect(within(live).getByText('Active').className).toContain('badge-success');
    // Still running: its settle action ends bidding early, and says so.
    for (const name of ['Edit', 'End early', 'Delete']) expect(within(live).getByRole<HTMLButtonElement>('button', { name }).disabled).toBe(false);

    const done = rowOf('Winter Sale');
    expect(within(done).getAllByText('Settled')[0]!.className).toContain('badge-info');
    const buttons = within(done).getAllByRole<HTMLButtonElement>('button');
    expect(buttons.map((b) => [b.textContent, b.disabled, b.title])).toEqual([
      ['Edit', true, 'A settled auction cannot be edited'],
      ['Settled', true, 'This auction is already settled'],
      ['Delete', true, 'A settled auction cannot be deleted'],
    ]);
  });

  it('a live auction:updated (which lists no products) renames the row at once and reads the list again once per burst', async () => {
    const api = routeFetch({
      'GET /api/admin/auctions/my': [
        jsonResponse(200, [open, settled]),
        jsonResponse(200, [{ ...open, name: 'Spring Sale II', product_ids: ['P-1', 'P-9'], product_count: 2 }, settled]),
      ],
    });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });
    const data = liveSummary(open, { name: 'Spring Sale II', product_count: 2 });
    act(() => {
      for (let i = 0; i < 3; i++) injectLiveEvent({ event: 'auction:updated', data });
    });
    expect(screen.getByRole('link', { name: 'Spring Sale II' })).toBeTruthy();
    await waitFor(() => expect(useAdminAuctions.getState().auctions[0]?.product_ids).toEqual(['P-1', 'P-9']));
    await new Promise((r) => setTimeout(r, 400));
    expect(api.calls('GET /api/admin/auctions/my')).toHaveLength(2);
  });

  it('marks an auction whose end soft close moved as Extended, from the list and live', async () => {
    const moved = makeAdminAuction({ id: 'AUC-4', name: 'Coins', extended: true, original_valid_until: '2030-01-01T10:00:00.000Z', valid_until: '2030-01-01T10:02:00.000Z' });
    routeFetch({ 'GET /api/admin/auctions/my': [jsonResponse(200, [open, moved])] });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });
    expect(within(rowOf('Coins')).getByText('Extended')).toBeTruthy();
    expect(within(rowOf('Coins')).getByText('Extended').closest('[title]')!.getAttribute('title')).toBe(`Soft close moved the end from ${formatDateTime(moved.original_valid_until)}`);
    expect(within(rowOf('Spring Sale')).queryByText('Extended')).toBeNull();

    const later = new Date(Date.parse(open.valid_until) + 120_000).toISOString();
    act(() => injectLiveEvent({ event: 'auction:extended', data: { auction_id: 'AUC-1', valid_until: later, original_valid_until: open.valid_until, server_time: later } }));
    expect(within(rowOf('Spring Sale')).getByText('Extended')).toBeTruthy();
    expect(rowOf('Spring Sale').textContent).toContain(formatDateTimeSeconds(later));
  });

  it('a running auction is ended early only after saying how early and what happens', async () => {
    const soon = makeAdminAuction({ valid_until: new Date(Date.now() + 25 * 60_000 - 5_000).toISOString() });
    const api = routeFetch({
      'GET /api/admin/auctions/my': [jsonResponse(200, [soon])],
      'POST /api/admin/auction/AUC-1/settle': [jsonResponse(200, { message: 'Auction settled successfully!', sold: [], unsold: [] })],
      'GET /api/admin/auction/AUC-1': [jsonResponse(200, { ...soon, status: 'settled' })],
    });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });
    const button = within(rowOf('Spring Sale')).getByRole('button', { name: 'End early' });
    expect(button.title).toBe('End Spring Sale now, 25 min before its set end');
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'End Auction Early' });
    expect(within(dialog).getByText('Bidding stops now, 25 min before the set end; leaders win at their current price. This action cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'End now' }));
    await toastWith('Auction settled successfully!');
    expect(api.calls('POST /api/admin/auction/AUC-1/settle')).toHaveLength(1);
  });

  it('asks before settling an ended auction: Cancel sends nothing; confirming settles, toasts and shows the row as Settled', async () => {
    const ended = makeAdminAuction({ valid_until: new Date(Date.now() - 60_000).toISOString(), status: 'ended' });
    const api = routeFetch({
      'GET /api/admin/auctions/my': [jsonResponse(200, [ended])],
      'POST /api/admin/auction/AUC-1/settle': [jsonResponse(200, { message: 'Auction settled successfully!', sold: [], unsold: [] })],
      'GET /api/admin/auction/AUC-1': [jsonResponse(200, { ...ended, status: 'settled' })],
    });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });

    fireEvent.click(within(rowOf('Spring Sale')).getByRole('button', { name: 'Settle' }));
    let dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(CONFIRM_SETTLE)).toBeTruthy();
    expect(CONFIRM_SETTLE).toBe('Are you sure you want to settle this auction? This action cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls('POST /api/admin/auction/AUC-1/settle')).toHaveLength(0);

    fireEvent.click(within(rowOf('Spring Sale')).getByRole('button', { name: 'Settle' }));
    dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Settle' }));
    await toastWith('Auction settled successfully!');
    await waitFor(() => expect(within(rowOf('Spring Sale')).getByText('Settled', { selector: '.badge' })).toBeTruthy());
    expect(api.calls('POST /api/admin/auction/AUC-1/settle')).toHaveLength(1);
    expect(within(rowOf('Spring Sale')).getByRole<HTMLButtonElement>('button', { name: 'Delete' }).disabled).toBe(true);
  });

  it('asks before deleting, removes the row on success and shows the server’s refusal otherwise', async () => {
    const other = makeAdminAuction({ id: 'AUC-3', name: 'Coins' });
    routeFetch({
      'GET /api/admin/auctions/my': [jsonResponse(200, [open, other])],
      'DELETE /api/admin/auction/AUC-1': [jsonResponse(200, { message: 'Auction deleted successfully!' })],
      'DELETE /api/admin/auction/AUC-3': [jsonResponse(409, { error: 'A settled auction cannot be deleted', message: 'x', code: 'AUCTION_SETTLED' })],
    });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });

    fireEvent.click(within(rowOf('Spring Sale')).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(CONFIRM_DELETE)).toBeTruthy();
    expect(CONFIRM_DELETE).toBe('Are you sure you want to delete this auction?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await toastWith('Auction deleted successfully!');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Spring Sale' })).toBeNull());

    fireEvent.click(within(rowOf('Coins')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await toastWith('A settled auction cannot be deleted');
    expect(screen.getByRole('link', { name: 'Coins' })).toBeTruthy();
  });

  it('shows the empty state, and the settle fallback toast when the server says nothing', async () => {
    routeFetch({ 'GET /api/admin/auctions/my': [jsonResponse(200, [])] });
    renderPage();
    expect(await screen.findByText('No auctions found. Create your first auction!')).toBeTruthy();

    cleanup();
    resetServerData();
    routeFetch({
      'GET /api/admin/auctions/my': [jsonResponse(200, [open])],
      'POST /api/admin/auction/AUC-1/settle': [new Error('offline')],
    });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });
    fireEvent.click(within(rowOf('Spring Sale')).getByRole('button', { name: 'End early' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End now' }));
    await toastWith('Failed to settle auction');
  });

  it('edits with the auction’s products checked plus the admin’s unassigned ones', async () => {
    const api = routeFetch({
      'GET /api/admin/auctions/my': [jsonResponse(200, [open])],
      'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [makeProduct({ id: 'P-1', name: 'Ming Vase' })])],
      'GET /api/admin/products/unassigned': [jsonResponse(200, [makeProduct({ id: 'P-9', name: 'Old Map', auction_id: null })])],
      'PUT /api/admin/auction/AUC-1': [(body) => jsonResponse(200, { message: 'ok', auction: { ...open, ...(body as object), product_count: 2 } })],
    });
    renderPage();
    await screen.findByRole('link', { name: 'Spring Sale' });
    fireEvent.click(within(rowOf('Spring Sale')).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Auction' });
    const vase = await within(dialog).findByRole<HTMLInputElement>('checkbox', { name: /Ming Vase/ });
    const map = within(dialog).getByRole<HTMLInputElement>('checkbox', { name: /Old Map/ });
    expect([vase.checked, map.checked]).toEqual([true, false]);
    fireEvent.click(map);

    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Please fill all required fields');
    expect(api.calls('PUT /api/admin/auction/AUC-1')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Spring Sale II' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await toastWith('Auction updated successfully!');
    expect(api.body('PUT /api/admin/auction/AUC-1')).toMatchObject({ name: 'Spring Sale II', product_ids: ['P-1', 'P-9'] });
    expect(await screen.findByRole('link', { name: 'Spring Sale II' })).toBeTruthy();
  });
});
