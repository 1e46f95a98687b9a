import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { House } from '@auction/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { useSession } from '../../../lib/session';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin, type FetchAnswer } from '../../../test/utils';
import { bodyOf, draftOf, fieldName, missingText, validateHouse } from '../model';
import { HousePage } from './HousePage';

const address = { line1: '12 MG Road', line2: null, city: 'Pune', state_code: '27', pin: '411001' };
const stored: House = {
  legal_name: 'Rao Auctions LLP', display_name: 'Rao Auctions', address, gstin: '27AAPFU0939F1ZV', invoice_prefix: 'RAO',
  phone: '+919812345678', email: 'sales@rao.example', payout: { holder: 'Rao Auctions LLP', ifsc: 'HDFC0001234', account_number: '••7890' },
  pickup_locations: [
    { id: 11, name: 'Pune warehouse', address: { ...address, line1: '4 Industrial Estate' }, instructions: 'Gate 2, bring your invoice', hours: 'Mon–Sat 10:00–18:00' },
    { id: 12, name: 'Mumbai office', address: { line1: '1 Fort Street', line2: null, city: 'Mumbai', state_code: '27', pin: '400001' }, instructions: null, hours: null },
  ],
  missing: [], updated_at: '2026-04-01T10:00:00.000Z',
};
const empty: House = {
  legal_name: null, display_name: null, address: null, gstin: null, invoice_prefix: null, phone: null, email: null, payout: null,
  pickup_locations: [], missing: ['legal_name', 'address'], updated_at: null,
};

const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);
const region = (name: string) => screen.getByRole('region', { name });
const input = (scope: HTMLElement, label: string) => within(scope).getByLabelText<HTMLInputElement>(label);
const type = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });
/** The text under a control: its error, else its hint. */
const under = (el: HTMLElement) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent;
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save house profile' }));
const banner = () => screen.queryByText(/Your invoices will need these/);

function renderPage(routes: Record<string, FetchAnswer[]>) {
  const api = routeFetch(routes);
  render(<MemoryRouter><HousePage /></MemoryRouter>);
  return api;
}

describe('the house model', () => {
  it('names what is missing, and reads the server’s schema paths as the form names its fields', () => {
    expect(missingText(['legal_name', 'address'])).toBe('legal name, address');
    expect(fieldName('pickup_locations.0.address.pin')).toBe('pickup_locations[0].address.pin');
    expect(fieldName('pickup_locations[1].id')).toBe('pickup_locations[1].id');
  });

  it('asks for the whole address once any of it is filled, and a stored profile sent back unchanged is valid', () => {
    const d = draftOf(empty);
    expect(validateHouse(d)).toEqual({});
    expect(bodyOf(d)).toEqual({ legal_name: null, display_name: null, address: null, gstin: null, invoice_prefix: null, phone: null, email: null, payout: null, pickup_locations: [] });
    expect(Object.keys(validateHouse({ ...d, address: { ...d.address, city: 'Pune' } })).sort()).toEqual(['address.line1', 'address.pin', 'address.state_code']);
    expect(validateHouse({ ...d, payout: { holder: 'X', ifsc: '', account_number: '' } })).toMatchObject({ 'payout.ifsc': expect.any(String) as unknown, 'payout.account_number': expect.any(String) as unknown });
    expect(validateHouse(draftOf(stored))).toEqual({});
    expect(bodyOf(draftOf(stored)).payout?.account_number).toBe('••7890');
  });
});

describe('HousePage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.getState().setAdminSession({ token: 'admin-token', admin: sampleAdmin });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('loads the stored profile with the admin token and shows the account number masked', async () => {
    const api = renderPage({ 'GET /api/admin/house': [jsonResponse(200, stored)] });
    const seller = await screen.findByRole('region', { name: 'Seller of record' });
    expect(input(seller, 'Legal name').value).toBe('Rao Auctions LLP');
    expect(input(seller, 'GSTIN').value).toBe('27AAPFU0939F1ZV');
    expect(under(input(seller, 'Invoice prefix'))).toBe('1–5 capital letters or digits, e.g. RAO: your invoices are numbered RAO/2627/000001');
    expect(api.calls('GET /api/admin/house')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer admin-token' });

    const addr = region('Address');
    expect(input(addr, 'Address line 1').value).toBe('12 MG Road');
    expect(input(addr, 'Address line 2 (optional)').value).toBe('');
    expect(within(addr).getByLabelText<HTMLSelectElement>('State').value).toBe('27');
    expect(within(addr).getByRole('option', { name: 'Maharashtra (27)' })).toBeTruthy();
    expect(input(addr, 'PIN code').value).toBe('411001');
    expect(input(region('Contact for buyers'), 'Email').value).toBe('sales@rao.example');

    const account = input(region('Payout account'), 'Account number');
    expect(account.value).toBe('••7890');
    expect(under(account)).toContain('Typing a new number replaces it');
    expect(under(account)).toContain('••7890');

    const pickup = region('Pickup locations');
    const pune = within(pickup).getByRole('group', { name: '1. Pune warehouse' });
    expect(input(pune, 'Address line 1').value).toBe('4 Industrial Estate');
    expect(within(pune).getByLabelText<HTMLTextAreaElement>('Instructions for buyers (optional)').value).toBe('Gate 2, bring your invoice');
    expect(input(pune, 'Opening hours (optional)').value).toBe('Mon–Sat 10:00–18:00');
    expect(within(pickup).getByRole('group', { name: '2. Mumbai office' })).toBeTruthy();
    expect(banner()).toBeNull();
  });

  it('names what settling still needs in the banner', async () => {
    renderPage({ 'GET /api/admin/house': [jsonResponse(200, empty)] });
    const note = await screen.findByText(/Your invoices will need these/);
    expect(note.textContent).toBe('Your invoices will need these: please fill in legal name, address');
    expect(note.closest('[role="status"]')).toBeTruthy();
    cleanup();
    resetAppState();
    useSession.getState().setAdminSession({ token: 'admin-token', admin: sampleAdmin });
    renderPage({ 'GET /api/admin/house': [jsonResponse(200, { ...empty, legal_name: 'Rao Auctions LLP', missing: ['address'] })] });
    await screen.findByRole('region', { name: 'Seller of record' });
    expect(banner()?.textContent).toBe('Your invoices will need these: please fill in address');
  });

  it('stops a bad GSTIN and a bad PIN before any request, each error under its field', async () => {
    const api = renderPage({ 'GET /api/admin/house': [jsonResponse(200, stored)] });
    const seller = await screen.findByRole('region', { name: 'Seller of record' });
    type(seller, 'GSTIN', '27aapfu0939f1zw');
    expect(input(seller, 'GSTIN').value).toBe('27AAPFU0939F1ZW');
    type(region('Address'), 'PIN code', '011001');
    save();
    expect(under(input(seller, 'GSTIN'))).toMatch(/wrong check character/);
    expect(input(seller, 'GSTIN').getAttribute('aria-invalid')).toBe('true');
    expect(under(input(region('Address'), 'PIN code'))).toBe('Enter a PIN code of 6 digits, e.g. 411001');
    expect(document.activeElement).toBe(input(seller, 'GSTIN'));

    // Another state's GSTIN is refused against the address's state; a half-filled new location too.
    type(seller, 'GSTIN', '29AAGCB7383J1Z4');
    type(region('Address'), 'PIN code', '411001');
    fireEvent.click(screen.getByRole('button', { name: 'Add a pickup location' }));
    const added = within(region('Pickup locations')).getByRole('group', { name: '3. Pickup location 3' });
    expect(document.activeElement).toBe(input(added, 'Name'));
    type(added, 'City', 'Nashik');
    save();
    expect(under(input(seller, 'GSTIN'))).toMatch(/state code of the address/);
    expect(under(input(added, 'Name'))).toBe('Give the location a name');
    expect(under(input(added, 'PIN code'))).toBe('Fill this in');
    expect(input(region('Address'), 'PIN code').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('Check the 5 fields marked above.')).toBeTruthy();
    expect(api.calls('PUT /api/admin/house')).toHaveLength(0);
  });

  it('saves the whole profile: the masked number back unchanged, a removed location left out, a new one without id; then shows the answer', async () => {
    const answer: House = {
      ...stored, display_name: null, email: 'sales@rao.example',
      pickup_locations: [
        stored.pickup_locations[1]!,
        { id: 13, name: 'Nashik depot', address: { line1: '7 College Road', line2: null, city: 'Nashik', state_code: '27', pin: '422005' }, instructions: 'Ring twice\nat the side door', hours: null },
      ],
      updated_at: '2026-04-02T10:00:00.000Z',
    };
    const api = renderPage({ 'GET /api/admin/house': [jsonResponse(200, stored)], 'PUT /api/admin/house': [jsonResponse(200, answer)] });
    const seller = await screen.findByRole('region', { name: 'Seller of record' });
    type(seller, 'Display name', '  ');
    type(region('Contact for buyers'), 'Email', 'Sales@Rao.example');
    const pickup = region('Pickup locations');
    fireEvent.click(within(pickup).getByRole('button', { name: 'Remove Pune warehouse' }));
    expect(within(pickup).queryByRole('group', { name: /Pune warehouse/ })).toBeNull();
    fireEvent.click(within(pickup).getByRole('button', { name: 'Add a pickup location' }));
    const added = within(pickup).getByRole('group', { name: '2. Pickup location 2' });
    type(added, 'Name', 'Nashik depot');
    const nashik = within(pickup).getByRole('group', { name: '2. Nashik depot' });
    type(nashik, 'Address line 1', '7 College Road');
    type(nashik, 'City', 'Nashik');
    fireEvent.change(within(nashik).getByLabelText('State'), { target: { value: '27' } });
    type(nashik, 'PIN code', '422005');
    fireEvent.change(within(nashik).getByLabelText('Instructions for buyers (optional)'), { target: { value: 'Ring twice\nat the side door' } });
    save();

    await waitFor(() => expect(toasts()).toContain('success: House profile saved'));
    expect(api.body('PUT /api/admin/house')).toEqual({
      legal_name: 'Rao Auctions LLP', display_name: null, address, gstin: '27AAPFU0939F1ZV', invoice_prefix: 'RAO',
      phone: '+919812345678', email: 'Sales@Rao.example', payout: { holder: 'Rao Auctions LLP', ifsc: 'HDFC0001234', account_number: '••7890' },
      pickup_locations: [
        { id: 12, name: 'Mumbai office', address: stored.pickup_locations[1]!.address, hours: null, instructions: null },
        { name: 'Nashik depot', address: { line1: '7 College Road', line2: null, city: 'Nashik', state_code: '27', pin: '422005' }, hours: null, instructions: 'Ring twice\nat the side door' },
      ],
    });
    expect(api.calls('PUT /api/admin/house')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer admin-token' });
    // The form shows what the server answered.
    expect(input(region('Contact for buyers'), 'Email').value).toBe('sales@rao.example');
    expect(input(seller, 'Display name').value).toBe('');
    expect(within(pickup).getAllByRole('group').map((g) => g.getAttribute('aria-labelledby') && document.getElementById(g.getAttribute('aria-labelledby')!)?.textContent))
      .toEqual(['1. Mumbai office', '2. Nashik depot']);

    // Saved again: the new location now goes with its id, a retyped account number whole.
    type(region('Payout account'), 'Account number', '0099 8877 6655');
    save();
    await waitFor(() => expect(api.calls('PUT /api/admin/house')).toHaveLength(2));
    const again = api.body('PUT /api/admin/house', 1) as { payout: { account_number: string }; pickup_locations: { id?: number }[] };
    expect(again.payout.account_number).toBe('009988776655');
    expect(again.pickup_locations.map((l) => l.id)).toEqual([12, 13]);
  });

  it('an empty house filled in and saved: the banner goes', async () => {
    const answer: House = { ...empty, legal_name: 'Rao Auctions LLP', address, missing: [], updated_at: '2026-04-02T10:00:00.000Z' };
    const api = renderPage({ 'GET /api/admin/house': [jsonResponse(200, empty)], 'PUT /api/admin/house': [jsonResponse(200, answer)] });
    const seller = await screen.findByRole('region', { name: 'Seller of record' });
    expect(banner()).toBeTruthy();
    type(seller, 'Legal name', 'Rao Auctions LLP');
    const addr = region('Address');
    type(addr, 'Address line 1', '12 MG Road');
    type(addr, 'City', 'Pune');
    fireEvent.change(within(addr).getByLabelText('State'), { target: { value: '27' } });
    type(addr, 'PIN code', '411001');
    save();
    await waitFor(() => expect(banner()).toBeNull());
    expect(api.body('PUT /api/admin/house')).toMatchObject({ legal_name: 'Rao Auctions LLP', address, payout: null, pickup_locations: [] });
  });

  it('shows the server’s refusal under the field it names, else as a toast', async () => {
    const api = renderPage({
      'GET /api/admin/house': [jsonResponse(200, stored)],
      'PUT /api/admin/house': [
        jsonResponse(409, { error: 'Another house\'s invoices already carry the prefix RAO: please choose another', code: 'INVOICE_PREFIX_TAKEN', field: 'invoice_prefix' }),
        jsonResponse(400, { error: 'address.pin must be a PIN code of 6 digits', code: 'VALIDATION', field: 'pickup_locations.1.address.pin' }),
        jsonResponse(400, { error: 'pickup_locations[].id must be the id of one of your pickup locations, each once', code: 'VALIDATION', field: 'pickup_locations[0].id' }),
        jsonResponse(500, { error: 'Something went wrong', code: 'INTERNAL' }),
      ],
    });
    const seller = await screen.findByRole('region', { name: 'Seller of record' });
    save();
    await waitFor(() => expect(under(input(seller, 'Invoice prefix'))).toBe('Another house\'s invoices already carry the prefix RAO: please choose another'));
    expect(input(seller, 'Invoice prefix').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(input(seller, 'Invoice prefix'));
    expect(toasts()).toEqual([]);
    // Typing in the field clears its error.
    type(seller, 'Invoice prefix', 'rao2');
    expect(input(seller, 'Invoice prefix').value).toBe('RAO2');
    expect(under(input(seller, 'Invoice prefix'))).toMatch(/^1–5 capital letters/);

    save();
    const mumbai = within(region('Pickup locations')).getByRole('group', { name: '2. Mumbai office' });
    await waitFor(() => expect(under(input(mumbai, 'PIN code'))).toBe('address.pin must be a PIN code of 6 digits'));

    save();
    const pune = within(region('Pickup locations')).getByRole('group', { name: '1. Pune warehouse' });
    await waitFor(() => expect(within(pune).getByText(/must be the id of one of your pickup locations/)).toBeTruthy());

    save();
    await waitFor(() => expect(toasts()).toContain('error: Something went wrong'));
    expect(api.calls('PUT /api/admin/house')).toHaveLength(4);
    expect(api.body('PUT /api/admin/house', 3)).toMatchObject({ invoice_prefix: 'RAO2' });
  });

  it('a failed read says so, with Try again', async () => {
    renderPage({ 'GET /api/admin/house': [jsonResponse(500, { error: 'The store is unavailable', code: 'INTERNAL' }), jsonResponse(200, stored)] });
    expect((await screen.findByRole('alert')).textContent).toContain('The store is unavailable');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Seller of record' })).toBeTruthy();
  });
});
