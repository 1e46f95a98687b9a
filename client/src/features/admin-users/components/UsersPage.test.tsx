import type { AdminUser } from '@auction/shared';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin, type FetchAnswer } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { usersCsv } from '../model';
import { UsersPage } from './UsersPage';

const user = (id: number, over: Partial<AdminUser> = {}): AdminUser => ({
  id, name: `User ${id}`, username: `user${id}`, mobile_number: `98765432${id}0`, wallet_balance: 1000 * id,
  auctions_registered: id, status: 'active', created_at: '2026-02-01T10:00:00.000Z', ...over,
});
const everyone = [user(1, { name: 'Asha Rao', username: 'asha' }), user(2, { status: 'inactive', wallet_balance: 250.5 }), user(3)];
const owner = { ...sampleAdmin, is_owner: true };
const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);
const stat = (label: string) => screen.getByText(label, { selector: '.stat-label' }).parentElement!.querySelector('.stat-value')!.textContent;

function renderPage(url = '/admin/users') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes><Route path="/admin/users" element={<><UsersPage /><ShowSearch /></>} /></Routes>
    </MemoryRouter>,
  );
}

/** The URL's query, for the tests to read. */
function ShowSearch() {
  return <output data-testid="search">{useLocation().search}</output>;
}

describe('UsersPage', () => {
  beforeEach(() => resetAppState());
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('tells a non-owner admin that only the platform owner can manage users, without calling the server', () => {
    const api = routeFetch({});
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 't' });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Only the platform owner can manage users' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to Dashboard/ }).getAttribute('href')).toBe('/admin/dashboard');
    expect(api.fn).not.toHaveBeenCalled();
  });

  it('shows the same page when the server answers 403', async () => {
    const refused = jsonResponse(403, { error: 'Only the platform owner may do this', code: 'FORBIDDEN' });
    routeFetch({ 'GET /api/admin/users': [refused], 'GET /api/admin/users?limit=24': [refused] });
    useSession.setState({ ready: true, admin: owner, adminToken: 't' });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Only the platform owner can manage users' })).toBeTruthy();
  });

  it('shows the owner the numbers and the table, and searches on the server (debounced)', async () => {
    const api = routeFetch({
      'GET /api/admin/users': [jsonResponse(200, { users: everyone })],
      'GET /api/admin/users?limit=24': [jsonResponse(200, { users: everyone })],
      'GET /api/admin/users?q=asha&limit=24': [jsonResponse(200, { users: [everyone[0]] })],
    });
    useSession.setState({ ready: true, admin: owner, adminToken: 't' });
    renderPage();
    expect(await screen.findByText('Asha Rao')).toBeTruthy();
    expect(stat('Total Users')).toBe('3');
    expect(stat('Active')).toBe('2');
    expect(stat('Inactive')).toBe('1');
    expect(stat('Total Wallet Value')).toBe('₹4,250.50');
    // The columns: user details, contact, wallet balance, auctions registered, status, joined date; the toggle.
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent))
      .toEqual(['User Details', 'Contact', 'Wallet Balance', 'Auctions Registered', 'Status', 'Joined Date', 'Action']);
    const row = screen.getByText('Asha Rao').closest('tr')!;
    expect(within(row).getByText('@asha')).toBeTruthy();
    expect(within(row).getByText('₹1,000')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();

    const box = screen.getByLabelText('Search users');
    fireEvent.change(box, { target: { value: 'as' } });
    fireEvent.change(box, { target: { value: 'asha' } });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(api.calls('GET /api/admin/users?q=asha&limit=24')).toHaveLength(1);
    expect(api.calls('GET /api/admin/users?q=as&limit=24')).toHaveLength(0);
    expect(stat('Total Users')).toBe('3');
  });

  it('shows the answer for the text in the box, never a late one for an earlier text', async () => {
    let answerAsha!: (res: Response) => void;
    const slowAsha = (() => new Promise<Response>((resolve) => { answerAsha = resolve; })) as unknown as FetchAnswer;
    const api = routeFetch({
      'GET /api/admin/users': [jsonResponse(200, { users: everyone })],
      'GET /api/admin/users?limit=24': [jsonResponse(200, { users: everyone })],
      'GET /api/admin/users?q=asha&limit=24': [slowAsha],
      'GET /api/admin/users?q=user&limit=24': [jsonResponse(200, { users: [everyone[1], everyone[2]] })],
    });
    useSession.setState({ ready: true, admin: owner, adminToken: 't' });
    renderPage();
    await screen.findByText('Asha Rao');
    const box = screen.getByLabelText('Search users');
    fireEvent.change(box, { target: { value: 'asha' } });
    await waitFor(() => expect(api.calls('GET /api/admin/users?q=asha&limit=24')).toHaveLength(1));
    fireEvent.change(box, { target: { value: 'user' } });
    // The last rows stay shown until the new search's answer replaces them.
    await waitFor(() => expect(screen.queryByText('Asha Rao')).toBeNull());
    expect(screen.getByText('User 3')).toBeTruthy();
    await act(async () => { answerAsha(jsonResponse(200, { users: [everyone[0]] })); await new Promise((r) => setTimeout(r, 0)); });
    expect(screen.queryByText('Asha Rao')).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(3);
  });

  it('deactivates after a confirmation, activates at once, and toasts', async () => {
    const api = routeFetch({
      'GET /api/admin/users': [jsonResponse(200, { users: everyone })],
      'GET /api/admin/users?limit=24': [jsonResponse(200, { users: everyone })],
      'PATCH /api/admin/users/1': [(body) => jsonResponse(200, { message: 'ok', user: { ...everyone[0], ...(body as object) } })],
      'PATCH /api/admin/users/2': [jsonResponse(500, {}), (body) => jsonResponse(200, { message: 'ok', user: { ...everyone[1], ...(body as object) } })],
    });
    useSession.setState({ ready: true, admin: owner, adminToken: 't' });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Deactivate Asha Rao (@asha)' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate user' });
    expect(dialog.textContent).toContain('Deactivate Asha Rao (@asha)?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls('PATCH /api/admin/users/1')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Deactivate Asha Rao (@asha)' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(toasts()).toContain('success: Asha Rao deactivated'));
    expect(JSON.parse(api.calls('PATCH /api/admin/users/1')[0]![1]!.body as string)).toEqual({ status: 'inactive' });
    expect(within(screen.getByText('Asha Rao').closest('tr')!).getByText('Inactive')).toBeTruthy();
    expect(stat('Inactive')).toBe('2');

    fireEvent.click(screen.getByRole('button', { name: 'Activate User 2 (@user2)' }));
    await waitFor(() => expect(toasts()).toContain('error: Update failed'));
    // The toast may render a moment before the button is enabled again.
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Activate User 2 (@user2)' }).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Activate User 2 (@user2)' }));
    await waitFor(() => expect(toasts()).toContain('success: User 2 activated'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(stat('Active')).toBe('2');
  });

  it('exports users.csv, formula-safe', async () => {
    const names: string[] = [];
    vi.stubGlobal('URL', Object.assign(Object.create(URL) as typeof URL, { createObjectURL: () => 'blob:test', revokeObjectURL: () => undefined }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { names.push(this.download); });
    routeFetch({ 'GET /api/admin/users': [jsonResponse(200, { users: everyone })], 'GET /api/admin/users?limit=24': [jsonResponse(200, { users: everyone })] });
    useSession.setState({ ready: true, admin: owner, adminToken: 't' });
    renderPage();
    await screen.findByText('Asha Rao');
    fireEvent.click(screen.getByRole('button', { name: 'Export Users' }));
    await waitFor(() => expect(names).toEqual(['users.csv']));
    expect(toasts()).toContain('success: CSV file generated.');
    click.mockRestore();

    expect(usersCsv([user(9, { name: '=cmd|x', username: 'u9', mobile_number: '+9198765' }), user(10, { username: 'u10', wallet_balance: 4250.5 })])).toBe(
      'id,name,username,mobile_number,wallet_balance,auctions_registered,status,created_at\r\n'
      + "9,'=cmd|x,u9,+9198765,9000,9,active,2026-02-01T10:00:00.000Z\r\n"
      + `10,${user(10).name},u10,${user(10).mobile_number},4250.50,10,active,${user(10).created_at}`,
    );
  });

  it('reads the table a page at a time with Load more, and keeps the search in the URL', async () => {
    const many = Array.from({ length: 30 }, (_, i) => user(i + 1));
    const api = routeFetch({
      'GET /api/admin/users': [jsonResponse(200, { users: many })],
      'GET /api/admin/users?q=user&limit=24': [jsonResponse(200, { users: many.slice(0, 24), next_cursor: 'c1' })],
      'GET /api/admin/users?q=user&limit=24&cursor=c1': [jsonResponse(200, { users: many.slice(24), next_cursor: null })],
    });
    useSession.setState({ ready: true, admin: owner, adminToken: 't' });
    renderPage('/admin/users?q=user');
    expect(await screen.findByText('User 24')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Search users').value).toBe('user');
    expect(screen.queryByText('User 25')).toBeNull();
    expect(screen.getByText('Showing 24 users')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('User 30')).toBeTruthy();
    expect(screen.getAllByRole('row')).toHaveLength(31);
    expect(screen.getByText('All users shown')).toBeTruthy();
    expect(api.calls('GET /api/admin/users?q=user&limit=24&cursor=c1')).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'asha' } });
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe('?q=asha'));
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: '' } });
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe(''));
  });
});
