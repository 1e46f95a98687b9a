import type { AdminAuction, Product } from '@auction/shared';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { registerNavigate } from '../../../lib/api-client';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin, type FetchAnswer } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { validateProduct } from '../model';
import { ManageProductsPage } from './ManageProductsPage';

const product = (id: string, over: Partial<Product> = {}): Product => ({
  id, name: `Item ${id}`, description: `About ${id}`, status: 'available', auction_id: null, highest_bid: 0, bid_count: 0, version: 0,
  starting_price: 0, min_next_bid: 1, reserve_met: null, buy_now_price: null, my_status: null, my_max: null, reserve_price: null, images: [], ...over,
});
const auction = (id: string, productIds: string[]): AdminAuction => ({
  id, name: `Auction ${id}`, valid_until: '2030-01-01T00:00:00.000Z', product_ids: productIds, registrations: [], product_count: productIds.length,
  status: 'active', created_by: 1, created_at: '2026-01-01T00:00:00.000Z', settled_at: null,
  original_valid_until: '2030-01-01T00:00:00.000Z', increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 120, max_extension_s: 3600, extended: false,
});

const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);

function renderPage() {
  return render(<MemoryRouter><ManageProductsPage /></MemoryRouter>);
}

describe('validateProduct', () => {
  it('needs id, name and description when adding and name and description when editing', () => {
    expect(validateProduct({ id: '', name: 'a', description: 'b' }, 'add')).toEqual({ ok: false, error: 'Please fill all fields' });
    expect(validateProduct({ id: 'x', name: '  ', description: 'b' }, 'add')).toEqual({ ok: false, error: 'Please fill all fields' });
    expect(validateProduct({ id: '', name: 'a', description: '' }, 'edit')).toEqual({ ok: false, error: 'Fill required fields' });
    expect(validateProduct({ id: '', name: ' a ', description: 'b' }, 'edit')).toEqual({ ok: true, value: { id: '', name: 'a', description: 'b' } });
  });
});

describe('ManageProductsPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'admin-token' });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('lists unassigned products with counts on both tabs and the auction picker on the second', async () => {
    routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [product('P1'), product('P2', { status: 'sold' })])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [auction('A1', ['P9']), auction('A2', [])])],
      'GET /api/admin/auction/A1/products': [jsonResponse(200, [product('P9', { auction_id: 'A1' })])],
      'GET /api/admin/auction/A2/products': [jsonResponse(200, [])],
    });
    renderPage();
    expect(await screen.findByText('Item P1')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Available')).toBeTruthy();
    expect(within(rows[1]!).getByText('Sold')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Delete Item P2' }).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Delete Item P1' }).disabled).toBe(false);
    expect(screen.getByRole('tab', { name: 'Unassigned (2)' }).getAttribute('aria-selected')).toBe('true');

    fireEvent.click(screen.getByRole('tab', { name: 'By Auction (1)' }));
    expect(await screen.findByText('Item P9')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Auction'), { target: { value: 'A2' } });
    expect(await screen.findByText('No products for this auction')).toBeTruthy();
  });

  it('shows the picked auction\'s products, never a late reply for the auction picked before', async () => {
    let answerA1!: (res: Response) => void;
    const slowA1 = (() => new Promise<Response>((resolve) => { answerA1 = resolve; })) as unknown as FetchAnswer;
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [auction('A1', ['P1']), auction('A2', ['P2'])])],
      'GET /api/admin/auction/A1/products': [slowA1],
      'GET /api/admin/auction/A2/products': [jsonResponse(200, [product('P2', { auction_id: 'A2' })])],
    });
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: 'By Auction (2)' }));
    await waitFor(() => expect(api.calls('GET /api/admin/auction/A1/products')).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('Auction'), { target: { value: 'A2' } });
    expect(await screen.findByText('Item P2')).toBeTruthy();
    await act(async () => { answerA1(jsonResponse(200, [product('P1', { auction_id: 'A1' })])); await new Promise((r) => setTimeout(r, 0)); });
    expect(screen.queryByText('Item P1')).toBeNull();
    expect(screen.getByText('Item P2')).toBeTruthy();
  });

  it('shows the empty message and the load failure toast', async () => {
    routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [])],
      'GET /api/admin/auctions/my': [jsonResponse(500, { error: 'Database busy', code: 'UNAVAILABLE' })],
    });
    renderPage();
    expect(await screen.findByText('No unassigned products')).toBeTruthy();
    await waitFor(() => expect(toasts()).toContain('error: Database busy'));
  });

  it('adds a product: the spec message first, then POST, the toast and a refreshed list', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, []), jsonResponse(200, [product('P7')])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'POST /api/admin/product': [jsonResponse(201, { message: 'ok', product: product('P7') })],
    });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Product' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Vase' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Please fill all fields');
    expect(api.calls('POST /api/admin/product')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Product ID'), { target: { value: 'P7' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Blue glass' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(toasts()).toContain('success: Product created'));
    expect(JSON.parse(api.calls('POST /api/admin/product')[0]![1]!.body as string)).toEqual({ id: 'P7', name: 'Vase', description: 'Blue glass' });
    // The new product exists now: the dialog turns to its photos, with "Choose photos" ready.
    const photos = screen.getByRole('dialog', { name: 'Add Photos' });
    expect(photos.textContent).toContain('Product P7 created');
    expect(document.activeElement).toBe(within(photos).getByRole('button', { name: 'Choose photos' }));
    fireEvent.click(within(photos).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Item P7')).toBeTruthy();
  });

  it('prefers the server error text when creating fails and keeps the form open', async () => {
    routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'POST /api/admin/product': [jsonResponse(409, { error: 'Product id P1 is taken', code: 'ID_TAKEN' })],
    });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Product ID'), { target: { value: 'P1' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Vase' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Blue' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(toasts()).toContain('error: Product id P1 is taken'));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('edits without an id field ("Fill required fields"), then PUTs name and description', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [product('P1')])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'PUT /api/admin/product/P1': [jsonResponse(500, {}), jsonResponse(200, { message: 'ok', product: product('P1', { name: 'New' }) })],
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Item P1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    expect(within(dialog).queryByLabelText('Product ID')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Fill required fields');
    expect(api.calls('PUT /api/admin/product/P1')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'New' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(toasts()).toContain('error: Update failed'));
    // The toast may render a moment before the button leaves "Saving…".
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(toasts()).toContain('success: Product updated'));
    expect(JSON.parse(api.calls('PUT /api/admin/product/P1')[1]![1]!.body as string)).toEqual({ name: 'New', description: 'About P1' });
  });

  it('adds a product with its prices and lists them', async () => {
    const priced = product('P8', { starting_price: 500, reserve_price: 800, buy_now_price: 2000 });
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, []), jsonResponse(200, [priced, product('P9')])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'POST /api/admin/product': [jsonResponse(201, { message: 'ok', product: priced })],
    });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Product' });
    fireEvent.change(within(dialog).getByLabelText('Product ID'), { target: { value: 'P8' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Lamp' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Brass' } });
    fireEvent.change(within(dialog).getByLabelText(/^Starting price/), { target: { value: '500' } });
    fireEvent.change(within(dialog).getByLabelText(/^Reserve price/), { target: { value: '800' } });
    fireEvent.change(within(dialog).getByLabelText(/^Buy-now price/), { target: { value: '2,000' } });
    expect(within(dialog).getByText('Secret: below it the lot is not sold.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(toasts()).toContain('success: Product created'));
    expect(api.body('POST /api/admin/product')).toEqual({ id: 'P8', name: 'Lamp', description: 'Brass', starting_price: 500, reserve_price: 800, buy_now_price: 2000 });

    expect(await screen.findByText('Item P8')).toBeTruthy();
    expect(screen.getByTestId('prices-P8').textContent).toBe('Start ₹500Reserve ₹800Buy now ₹2,000');
    expect(screen.getByTestId('prices-P9').textContent).toBe('Start ₹0');
  });

  it('refuses prices out of order with the server’s kind of sentence, and sends nothing', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'POST /api/admin/product': [jsonResponse(201, { message: 'ok', product: product('P8') })],
    });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Product' });
    fireEvent.change(within(dialog).getByLabelText('Product ID'), { target: { value: 'P8' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Lamp' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Brass' } });
    const starting = within(dialog).getByLabelText(/^Starting price/);
    const reserve = within(dialog).getByLabelText(/^Reserve price/);
    const buyNow = within(dialog).getByLabelText(/^Buy-now price/);
    const submit = within(dialog).getByRole('button', { name: 'Add Product' });

    fireEvent.change(starting, { target: { value: '500' } });
    fireEvent.change(reserve, { target: { value: '400' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toBe('Reserve price must be at least the starting price (₹500)');
    expect(reserve.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(reserve, { target: { value: '' } });
    fireEvent.change(buyNow, { target: { value: '500' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toBe('Buy-now price must be more than the starting price (₹500)');

    fireEvent.change(reserve, { target: { value: '900' } });
    fireEvent.change(buyNow, { target: { value: '800' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toBe('Buy-now price must be at least the reserve price (₹900)');

    fireEvent.change(buyNow, { target: { value: '12.345' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toBe('Buy-now price must be an amount in rupees from 0 to 1000000000, with at most 2 decimals');
    expect(api.calls('POST /api/admin/product')).toHaveLength(0);

    fireEvent.change(buyNow, { target: { value: '900' } });
    fireEvent.click(submit);
    await waitFor(() => expect(toasts()).toContain('success: Product created'));
    expect(api.body('POST /api/admin/product')).toMatchObject({ starting_price: 500, reserve_price: 900, buy_now_price: 900 });
  });

  it('edits the prices of a lot without bids, sending only what changed (a cleared reserve is removed)', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [product('P1', { starting_price: 100, reserve_price: 300, buy_now_price: 1000 })])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'PUT /api/admin/product/P1': [jsonResponse(200, { message: 'ok', product: product('P1') })],
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Item P1' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    const starting = within(dialog).getByLabelText<HTMLInputElement>(/^Starting price/);
    const reserve = within(dialog).getByLabelText<HTMLInputElement>(/^Reserve price/);
    expect([starting.value, reserve.value, within(dialog).getByLabelText<HTMLInputElement>(/^Buy-now price/).value]).toEqual(['100', '300', '1000']);
    expect(starting.disabled).toBe(false);
    fireEvent.change(reserve, { target: { value: '' } });
    fireEvent.change(starting, { target: { value: '150' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(toasts()).toContain('success: Product updated'));
    expect(api.body('PUT /api/admin/product/P1')).toEqual({ name: 'Item P1', description: 'About P1', starting_price: 150, reserve_price: null });
  });

  it('a lot with bids keeps its prices: the fields are disabled, said so, and not sent', async () => {
    const withBids = product('P9', { auction_id: 'A1', highest_bid: 650, bid_count: 2, starting_price: 500, reserve_price: 800 });
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [auction('A1', ['P9'])])],
      'GET /api/admin/auction/A1/products': [jsonResponse(200, [withBids])],
      'PUT /api/admin/product/P9': [jsonResponse(200, { message: 'ok', product: withBids })],
    });
    renderPage();
    fireEvent.click(await screen.findByRole('tab', { name: 'By Auction (1)' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Item P9' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    expect(within(dialog).getByText('Prices are fixed once a lot has bids')).toBeTruthy();
    for (const label of [/^Starting price/, /^Reserve price/, /^Buy-now price/]) {
      expect(within(dialog).getByLabelText<HTMLInputElement>(label).disabled).toBe(true);
    }
    expect(within(dialog).getByLabelText<HTMLInputElement>('Name').disabled).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Renamed' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(toasts()).toContain('success: Product updated'));
    expect(api.body('PUT /api/admin/product/P9')).toEqual({ name: 'Renamed', description: 'About P9' });
  });

  it('deletes only after "Delete product?" is confirmed', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [product('P1')]), jsonResponse(200, [])],
      'GET /api/admin/auctions/my': [jsonResponse(200, [])],
      'DELETE /api/admin/product/P1': [jsonResponse(200, { message: 'Deleted' })],
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Item P1' }));
    expect(screen.getByRole('dialog').textContent).toContain('Delete product?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.calls('DELETE /api/admin/product/P1')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Item P1' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts()).toContain('success: Deleted'));
    expect(await screen.findByText('No unassigned products')).toBeTruthy();
  });

  it('stays quiet when a 401 ends the session', async () => {
    // A 401 ends the session only for a call that carried a token.
    localStorage.setItem('admin_token', 'admin-token');
    const navigate = vi.fn();
    registerNavigate(navigate);
    const gone = () => jsonResponse(401, { error: 'Please sign in', message: 'Please sign in', code: 'UNAUTHENTICATED' });
    routeFetch({ 'GET /api/admin/products/unassigned': [gone()], 'GET /api/admin/auctions/my': [gone()] });
    renderPage();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/', { replace: true }));
    expect(await screen.findByText('No unassigned products')).toBeTruthy();
    expect(toasts()).toEqual([]);
  });
});
