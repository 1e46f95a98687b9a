import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { useAdminAuctions } from '../store/admin-auctions-store';
import { makeAdminAuction, makeProduct, routeFetch } from '../testing';
import { AuctionFormModal } from './AuctionFormModal';

const MESSAGE = 'Please fill all fields and select at least one product';

function renderCreate() {
  const onClose = vi.fn();
  render(<><AuctionFormModal mode="create" onClose={onClose} /><Toaster /></>);
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Create Auction' }) };
}

const unassigned = [makeProduct({ id: 'P-1', name: 'Ming Vase', auction_id: null }), makeProduct({ id: 'P-2', name: 'Brass Lamp', auction_id: null })];

describe('Create Auction modal', () => {
  beforeEach(() => {
    resetAppState();
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('refuses an incomplete form with the spec’s sentence and sends nothing', async () => {
    const api = routeFetch({ 'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)] });
    const { dialog } = renderCreate();
    await within(dialog).findByRole('checkbox', { name: /Ming Vase/ });
    const submit = within(dialog).getByRole('button', { name: 'Create Auction' });

    // Nothing filled.
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toContain(MESSAGE);

    // Every field but no product.
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: 'spring' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Spring Sale' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toContain(MESSAGE);

    // A product but an empty end.
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Ming Vase/ }));
    fireEvent.change(within(dialog).getByLabelText(/Valid Until/), { target: { value: '' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toContain(MESSAGE);

    expect(api.calls('POST /api/admin/auction')).toHaveLength(0);
  });

  it('creates with the selected products and the local end as an ISO instant, and the auction joins the list', async () => {
    const api = routeFetch({
      'GET /api/admin/auctions/my': [jsonResponse(200, [makeAdminAuction({ id: 'older' })])],
      'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)],
      'POST /api/admin/auction': [(body) => jsonResponse(201, { message: 'Auction created successfully!', auction: makeAdminAuction({ ...(body as object), product_count: 1 }) })],
    });
    await useAdminAuctions.getState().load();
    const { dialog, onClose } = renderCreate();
    await within(dialog).findByRole('checkbox', { name: /Brass Lamp/ });
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: ' spring ' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Spring Sale' } });
    fireEvent.change(within(dialog).getByLabelText(/Valid Until/), { target: { value: '2030-05-01T18:30' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Brass Lamp/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.body('POST /api/admin/auction')).toEqual({
      id: 'spring', name: 'Spring Sale', valid_until: new Date('2030-05-01T18:30').toISOString(), product_ids: ['P-2'],
    });
    expect(screen.getByText('Auction created successfully!')).toBeTruthy();
    expect(useAdminAuctions.getState().auctions.map((a) => a.id)).toEqual(['spring', 'older']);
  });

  it('keeps the form open and shows the server’s error when creating fails', async () => {
    routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)],
      'POST /api/admin/auction': [jsonResponse(409, { error: 'An auction with this id already exists', message: 'x', code: 'ID_TAKEN' })],
    });
    const { dialog, onClose } = renderCreate();
    await within(dialog).findByRole('checkbox', { name: /Ming Vase/ });
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: 'spring' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Spring Sale' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Ming Vase/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    expect(await screen.findByText('An auction with this id already exists')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says so when there are no unassigned products', async () => {
    routeFetch({ 'GET /api/admin/products/unassigned': [jsonResponse(200, [])] });
    const { dialog } = renderCreate();
    expect(await within(dialog).findByText('No unassigned products available')).toBeTruthy();
  });
});
