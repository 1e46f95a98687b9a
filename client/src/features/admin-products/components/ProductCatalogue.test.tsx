import type { AdminProductItem, Product } from '@auction/shared';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { ManageProductsPage } from './ManageProductsPage';

const product = (id: string, over: Partial<AdminProductItem> = {}): AdminProductItem => ({
  id, name: `Item ${id}`, description: `About ${id}`, status: 'available', auction_id: null, highest_bid: 0, bid_count: 0, version: 0,
  starting_price: 0, min_next_bid: 1, reserve_met: null, buy_now_price: null, my_status: null, my_max: null, reserve_price: null, images: [],
  category: null, lot_number: null, auction: null, ...over,
});
const page = (items: AdminProductItem[], next: string | null, total: number) => jsonResponse(200, { items, next_cursor: next, total });
const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);
const base = { 'GET /api/admin/products/unassigned': [jsonResponse(200, [] as Product[])], 'GET /api/admin/auctions/my': [jsonResponse(200, [])] };

function ShowSearch() {
  return <output data-testid="search">{useLocation().search}</output>;
}
function renderPage(url = '/admin/products') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes><Route path="/admin/products" element={<><ManageProductsPage /><ShowSearch /></>} /></Routes>
    </MemoryRouter>,
  );
}

describe('Manage Products: the paged list, import and export', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'admin-token' });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
    vi.unstubAllGlobals();
  });

  it('reads All Products a page at a time, with the category, the lot and the auction of each; status and search in the URL', async () => {
    const first = Array.from({ length: 24 }, (_, i) => product(`P${30 - i}`));
    first[0] = product('P30', { category: { id: 2, name: 'Lamps', slug: 'lamps' }, lot_number: 12, auction_id: 'A1', auction: { id: 'A1', name: 'Spring Sale' } });
    const api = routeFetch({
      ...base,
      'GET /api/admin/products': [page(first, 'c1', 30)],
      'GET /api/admin/products?cursor=c1': [page(Array.from({ length: 6 }, (_, i) => product(`P${6 - i}`)), null, 30)],
      'GET /api/admin/products?status=sold': [page([product('S1', { status: 'sold' })], null, 1)],
      'GET /api/admin/products?q=vase&status=sold': [page([], null, 0)],
    });
    renderPage('/admin/products?view=all');
    const row = (await screen.findByText('Item P30')).closest('tr')!;
    expect(within(row).getByText('Lamps')).toBeTruthy();
    expect(within(row).getByText('Lot 12')).toBeTruthy();
    expect(within(row).getByText('Spring Sale')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'All Products (30)' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Showing 24 of 30 products')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Item P1')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(31);
    expect(screen.getByText('All 30 products shown')).toBeTruthy();
    expect(api.calls('GET /api/admin/products?cursor=c1')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'sold' } });
    expect(await screen.findByText('Item S1')).toBeTruthy();
    expect(screen.getByTestId('search').textContent).toBe('?view=all&status=sold');
    fireEvent.change(screen.getByLabelText('Search products by name'), { target: { value: 'vase' } });
    expect(await screen.findByText('No products match “vase”')).toBeTruthy();
    expect(screen.getByTestId('search').textContent).toBe('?view=all&status=sold&q=vase');
  });

  it('opens on the filters the URL names', async () => {
    const api = routeFetch({ ...base, 'GET /api/admin/products?q=lamp&status=unassigned': [page([product('L1')], null, 1)] });
    renderPage('/admin/products?view=all&status=unassigned&q=lamp');
    expect(await screen.findByText('Item L1')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Search products by name').value).toBe('lamp');
    expect(screen.getByLabelText<HTMLSelectElement>('Show').value).toBe('unassigned');
    expect(api.calls('GET /api/admin/products')).toHaveLength(0);
  });

  it('imports a chosen file: "Imported N products" and the lists read again', async () => {
    const api = routeFetch({
      ...base,
      'GET /api/admin/products/unassigned': [jsonResponse(200, []), jsonResponse(200, [product('N1'), product('N2')])],
      'POST /api/admin/products/import': [jsonResponse(201, { created: 2 })],
    });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = screen.getByRole('dialog', { name: 'Import products' });
    expect(within(dialog).getByText('id,name,description,category,starting_price,reserve_price,buy_now_price')).toBeTruthy();
    const file = new File(['id,name,description\nN1,One,x\nN2,Two,y\n'], 'new.csv', { type: 'text/csv' });
    fireEvent.change(within(dialog).getByTestId('import-file'), { target: { files: [file] } });
    expect((await within(dialog).findByRole('status')).textContent).toContain('Imported 2 products');
    expect(toasts()).toContain('success: Imported 2 products');
    const sent = api.calls('POST /api/admin/products/import')[0]![1]!.body as FormData;
    expect((sent.get('file') as File).name).toBe('new.csv');
    // The unassigned list is read again and shows them.
    expect(await screen.findByText('Item N2')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows a refused import’s problems by line, says nothing was imported, and takes a dropped file', async () => {
    const rows = [
      { line: 3, field: 'starting_price', message: 'starting_price must be an amount in rupees' },
      { line: 5, field: 'category', message: 'Unknown category: garden' },
    ];
    const api = routeFetch({
      ...base,
      'POST /api/admin/products/import': [jsonResponse(400, { error: 'The file has problems', message: 'The file has problems', code: 'VALIDATION', rows })],
    });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = screen.getByRole('dialog', { name: 'Import products' });
    const file = new File(['id,name,description\n'], 'bad.csv', { type: 'text/csv' });
    fireEvent.drop(within(dialog).getByTestId('import-drop'), { dataTransfer: { files: [file] } });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(' The file has 2 problems. Nothing was imported: fix them and import the file again.');
    const table = within(dialog).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Line', 'Field', 'Problem']);
    const cells = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(cells).toEqual([['3', 'starting_price', rows[0]!.message], ['5', 'category', rows[1]!.message]]);
    expect(api.calls('POST /api/admin/products/import')).toHaveLength(1);
    expect(toasts().some((t) => t.startsWith('success'))).toBe(false);
  });

  it('exports products.csv with the admin token (fetch, then a file)', async () => {
    const names: string[] = [];
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(Object.create(URL) as typeof URL, { createObjectURL: (b: Blob) => { blobs.push(b); return 'blob:test'; }, revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { names.push(this.download); });
    localStorage.setItem('admin_token', 'admin-token');
    const csv = 'id,name,description,category,starting_price,reserve_price,buy_now_price\r\nP1,Lamp,Brass,lamps,100,,\r\n';
    const api = routeFetch({ ...base, 'GET /api/admin/products/export': [new Response(csv, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } })] });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(names).toEqual(['products.csv']));
    expect(api.calls('GET /api/admin/products/export')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer admin-token' });
    expect(await blobs[0]!.text()).toBe(csv);
    expect(toasts()).toContain('success: CSV file generated.');
    click.mockRestore();
  });

  it('the product form chooses a category from the two-level tree and sends its id', async () => {
    const api = routeFetch({
      ...base,
      'GET /api/categories': [jsonResponse(200, { categories: [
        { id: 1, name: 'Home', slug: 'home', parent_id: null, open_lots: 0 },
        { id: 2, name: 'Lamps', slug: 'lamps', parent_id: 1, open_lots: 0 },
      ] })],
      'POST /api/admin/product': [(body) => jsonResponse(201, { message: 'Product created', product: { ...product('P5'), ...(body as object) } })],
    });
    renderPage();
    await screen.findByText('No unassigned products');
    fireEvent.click(screen.getByRole('button', { name: 'Add Product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Product' });
    const select = within(dialog).getByLabelText<HTMLSelectElement>('Category (optional)');
    await waitFor(() => expect([...select.options].map((o) => o.text)).toEqual(['No category', 'Home', 'Home › Lamps']));
    fireEvent.change(within(dialog).getByLabelText('Product ID'), { target: { value: 'P5' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Lamp' } });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Brass' } });
    fireEvent.change(select, { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Product' }));
    await waitFor(() => expect(api.calls('POST /api/admin/product')).toHaveLength(1));
    expect(api.body('POST /api/admin/product')).toMatchObject({ id: 'P5', name: 'Lamp', category_id: 2 });
  });

  it('editing sends the category only when it changed; "No category" takes the product out of it', async () => {
    const lamp = product('P1', { category: { id: 2, name: 'Lamps', slug: 'lamps' } });
    const api = routeFetch({
      ...base,
      'GET /api/admin/products/unassigned': [jsonResponse(200, [lamp])],
      'GET /api/categories': [jsonResponse(200, { categories: [{ id: 2, name: 'Lamps', slug: 'lamps', parent_id: null, open_lots: 0 }] })],
      'PUT /api/admin/product/P1': [(body) => jsonResponse(200, { message: 'Product updated', product: { ...lamp, ...(body as object) } })],
    });
    renderPage();
    expect(within((await screen.findByText('Item P1')).closest('tr')!).getByText('Lamps')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Item P1' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Category (optional)').value).toBe('2');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.calls('PUT /api/admin/product/P1')).toHaveLength(1));
    expect(api.body('PUT /api/admin/product/P1')).not.toHaveProperty('category_id');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit Item P1' }));
    dialog = screen.getByRole('dialog', { name: 'Edit Product' });
    fireEvent.change(within(dialog).getByLabelText('Category (optional)'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.calls('PUT /api/admin/product/P1')).toHaveLength(2));
    expect(api.body('PUT /api/admin/product/P1', 1)).toMatchObject({ category_id: null });
  });
});
