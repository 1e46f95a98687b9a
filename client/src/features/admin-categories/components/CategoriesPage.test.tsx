import type { Category } from '@auction/shared';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { CategoriesPage } from './CategoriesPage';

const cat = (id: number, name: string, parent: number | null, openLots = 0): Category => ({
  id, name, slug: name.toLowerCase().replace(/\W+/g, '-'), parent_id: parent, open_lots: openLots,
});
const tree = [cat(1, 'Home', null, 5), cat(2, 'Lamps', 1, 3), cat(3, 'Art', null, 0)];
const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);

describe('CategoriesPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'admin-token' });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows the two-level tree with each category’s open lots', async () => {
    routeFetch({ 'GET /api/categories': [jsonResponse(200, { categories: tree })] });
    render(<MemoryRouter><CategoriesPage /></MemoryRouter>);
    const home = (await screen.findByText('Home', { selector: '.categories-name-text > span' })).closest('tr')!;
    expect(within(home).getByText('5')).toBeTruthy();
    expect(within(home).getByText('Top level · 1 sub')).toBeTruthy();
    const lamps = screen.getByText('Lamps').closest('tr')!;
    expect(lamps.className).toContain('categories-row-sub');
    expect(within(lamps).getByText('Subcategory')).toBeTruthy();
    expect(within(lamps).getByText('3')).toBeTruthy();
    expect(screen.getAllByRole('row').slice(1).map((r) => r.querySelector('.categories-name-text > span')?.textContent)).toEqual(['Home', 'Lamps', 'Art']);
  });

  it('creates a subcategory under a chosen parent and reads the tree again', async () => {
    const api = routeFetch({
      'GET /api/categories': [jsonResponse(200, { categories: tree }), jsonResponse(200, { categories: [...tree.slice(0, 2), cat(4, 'Rugs', 1), tree[2]!] })],
      'POST /api/admin/categories': [(body) => jsonResponse(201, { message: 'Category created', category: { ...cat(4, 'Rugs', 1), ...(body as object) } })],
    });
    render(<MemoryRouter><CategoriesPage /></MemoryRouter>);
    await screen.findByText('Lamps');
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(await screen.findByText('Please fill all fields')).toBeTruthy();
    expect(api.calls('POST /api/admin/categories')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: ' Rugs ' } });
    const parent = screen.getByLabelText<HTMLSelectElement>('Parent');
    // Only top-level categories can be parents.
    expect([...parent.options].map((o) => o.text)).toEqual(['None (a top-level category)', 'Home', 'Art']);
    fireEvent.change(parent, { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(await screen.findByText('Rugs')).toBeTruthy();
    expect(api.body('POST /api/admin/categories')).toEqual({ name: 'Rugs', parent_id: 1 });
    expect(toasts()).toContain('success: Created “Rugs”');
    expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('');
  });

  it('renames and moves a category; one with subcategories stays top-level', async () => {
    const api = routeFetch({
      'GET /api/categories': [jsonResponse(200, { categories: tree })],
      'PUT /api/admin/categories/2': [(body) => jsonResponse(200, { message: 'Category updated', category: { ...cat(2, 'Desk lamps', 3), ...(body as object) } })],
    });
    render(<MemoryRouter><CategoriesPage /></MemoryRouter>);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Home' }));
    let dialog = screen.getByRole('dialog', { name: 'Edit category' });
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Parent').disabled).toBe(true);
    expect(within(dialog).getByText('It has 1 subcategory, so it stays a top-level category.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(screen.getByRole('button', { name: 'Edit Lamps' }));
    dialog = screen.getByRole('dialog', { name: 'Edit category' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Desk lamps' } });
    fireEvent.change(within(dialog).getByLabelText('Parent'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.body('PUT /api/admin/categories/2')).toEqual({ name: 'Desk lamps', parent_id: 3 });
    expect(toasts()).toContain('success: Category saved');
  });

  it('says in a sentence why a category in use was not deleted (409 CATEGORY_IN_USE)', async () => {
    const api = routeFetch({
      'GET /api/categories': [jsonResponse(200, { categories: tree })],
      'DELETE /api/admin/categories/2': [jsonResponse(409, { error: 'This category has products: move them to another category first', message: 'x', code: 'CATEGORY_IN_USE' })],
      'DELETE /api/admin/categories/3': [jsonResponse(200, { message: 'Category deleted' })],
    });
    render(<MemoryRouter><CategoriesPage /></MemoryRouter>);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Lamps' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete category' })).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toContain('“Lamps” was not deleted. This category has products: move them to another category first.');
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Art' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete category' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts()).toContain('success: Deleted “Art”'));
    expect(api.calls('DELETE /api/admin/categories/3')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
