import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Billing, NotificationSettings } from '@auction/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { jsonResponse, resetAppState, routeFetch, sampleUser, type FetchAnswer } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { changedKinds } from '../account-model';
import { AccountPage } from './AccountPage';

const me = (over: object = {}) => ({ role: 'user', ...sampleUser, email: 'asha@example.com', email_verified: true, ...over });
const flags = { outbid: true, won: true, lost: false, reinstated: false, ending_soon: true, extended: false, unsold: false, bought_now: false };
const noticeSettings = (over: Partial<NotificationSettings> = {}): NotificationSettings => ({ email_verified: true, email: flags, ...over });
const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);
const noContent = () => new Response(null, { status: 204 });

function routes(over: Record<string, FetchAnswer[]> = {}) {
  return routeFetch({
    'GET /api/me': [jsonResponse(200, me())],
    'GET /api/me/notification-settings': [jsonResponse(200, noticeSettings())],
    'GET /api/me/billing': [jsonResponse(200, { name: null, address: null, gstin: null, updated_at: null })],
    ...over,
  });
}

function renderPage() {
  return render(<MemoryRouter><AccountPage /></MemoryRouter>);
}

const emailCard = () => screen.getByRole('region', { name: 'Email' });
const noticeCard = () => screen.getByRole('region', { name: 'Email notifications' });
const billingCard = () => screen.getByRole('region', { name: 'Billing details' });
const billingField = (label: string) => within(billingCard()).getByLabelText<HTMLInputElement | HTMLSelectElement>(label);
const fillBilling = (values: Record<string, string>) => {
  for (const [label, value] of Object.entries(values)) fireEvent.change(billingField(label), { target: { value } });
};
const saveBillingButton = () => within(billingCard()).getByRole('button', { name: 'Save billing details' });
const bengaluru = { line1: '7 Residency Road', line2: null, city: 'Bengaluru', state_code: '29', pin: '560025' };
type BillingDetails = Omit<Billing, 'updated_at'>;
const billing = (details: BillingDetails, updated_at: string | null = '2026-03-01T10:00:00.000Z'): Billing => ({ ...details, updated_at });
const box = (name: RegExp | string) => within(noticeCard()).getByRole<HTMLInputElement>('checkbox', { name });

describe('changedKinds', () => {
  it('keeps only the kinds that differ from what the server holds', () => {
    expect(changedKinds(flags, { outbid: true, lost: true, won: false })).toEqual({ lost: true, won: false });
    expect(changedKinds(flags, { outbid: true })).toEqual({});
  });
});

describe('AccountPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.getState().setUserSession({ token: 'u-tok', user: sampleUser });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows the bidder’s details and a confirmed address, read with the user token', async () => {
    const api = routes();
    renderPage();
    const profile = screen.getByRole('region', { name: 'Profile' });
    const value = (label: string) => within(profile).getByText(label).parentElement!.querySelector('dd')!.textContent;
    expect(value('Full Name')).toBe('Asha Rao');
    expect(value('Username')).toBe('asha');
    expect(value('Mobile Number')).toBe('9876543210');

    expect(await within(emailCard()).findByText('asha@example.com')).toBeTruthy();
    expect(within(emailCard()).getByText('Confirmed', { selector: '.badge' })).toBeTruthy();
    expect(within(emailCard()).queryByText(/Waiting for confirmation/)).toBeNull();
    expect(api.calls('GET /api/me')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer u-tok' });
    // Confirmed: no note that emails wait for it.
    await within(noticeCard()).findByRole('checkbox', { name: 'Outbid' });
    expect(within(noticeCard()).queryByText(/Emails start once your email address is confirmed/)).toBeNull();
  });

  it('a new address waiting for its link says where mail goes until then', async () => {
    routes({ 'GET /api/me': [jsonResponse(200, me({ email: 'asha.new@example.com', email_verified: false, confirmed_email: 'asha@example.com' }))] });
    renderPage();
    expect(await within(emailCard()).findByText('asha.new@example.com')).toBeTruthy();
    expect(within(emailCard()).getByText(/Until then, mail goes to/).textContent).toContain('asha@example.com');
  });

  it('an address waiting for its link says so, and the notices say emails wait for it', async () => {
    const api = routes({
      'GET /api/me': [jsonResponse(200, me({ email_verified: false }))],
      'GET /api/me/notification-settings': [jsonResponse(200, noticeSettings({ email_verified: false }))],
      'PUT /api/me/email': [jsonResponse(202, { message: 'We sent a new link to asha@example.com.', email: 'asha@example.com', email_verified: false })],
    });
    renderPage();
    expect(await within(emailCard()).findByText('Waiting for confirmation', { selector: '.badge' })).toBeTruthy();
    expect(within(emailCard()).getByText(/Waiting for confirmation: open the link we sent/)).toBeTruthy();
    expect(await within(noticeCard()).findByText(/Emails start once your email address is confirmed/)).toBeTruthy();

    // Sending it again asks for the password as well.
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Send the link again' }));
    const password = within(emailCard()).getByLabelText<HTMLInputElement>('Your password');
    expect(within(emailCard()).getByText('Enter your password')).toBeTruthy();
    expect(document.activeElement).toBe(password);
    expect(api.calls('PUT /api/me/email')).toHaveLength(0);
    fireEvent.change(password, { target: { value: 'secret1' } });
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Send the link again' }));
    expect((await within(emailCard()).findByRole('status')).textContent).toContain('We sent a new link to asha@example.com.');
    expect(api.body('PUT /api/me/email')).toEqual({ email: 'asha@example.com', password: 'secret1' });
    expect(password.value).toBe('');
  });

  it('shows each kind as the server holds it and saves only the ones changed', async () => {
    const api = routes({
      'PUT /api/me/notification-settings': [
        jsonResponse(500, {}),
        (body) => jsonResponse(200, noticeSettings({ email: { ...flags, ...(body as { email: object }).email } })),
      ],
    });
    renderPage();
    await within(noticeCard()).findByRole('checkbox', { name: 'Outbid' });
    expect(['Outbid', 'You won', 'Ending soon', 'You did not win'].map((n) => box(n).checked)).toEqual([true, true, true, false]);
    expect(box('Outbid').getAttribute('aria-describedby')).toBe('notice-outbid-desc');
    const save = within(noticeCard()).getByRole<HTMLButtonElement>('button', { name: 'Save email notifications' });
    expect(save.disabled).toBe(true);

    fireEvent.click(box('Outbid'));
    fireEvent.click(box('You did not win'));
    expect(save.disabled).toBe(false);
    fireEvent.click(save);
    expect((await within(noticeCard()).findByRole('alert')).textContent).toContain('Could not save your email notifications');
    expect(box('Outbid').checked).toBe(false);

    fireEvent.click(save);
    await waitFor(() => expect(toasts()).toContain('success: Email notifications saved'));
    expect(api.body('PUT /api/me/notification-settings', 1)).toEqual({ email: { outbid: false, lost: true } });
    expect(api.calls('PUT /api/me/notification-settings')[1]![1]!.headers).toMatchObject({ authorization: 'Bearer u-tok' });
    expect(box('Outbid').checked).toBe(false);
    expect(box('You did not win').checked).toBe(true);
    expect(save.disabled).toBe(true);
    expect(within(noticeCard()).queryByRole('alert')).toBeNull();
  });

  it('adds an address with the current password: checks both first, then shows the server’s message and the waiting state', async () => {
    const api = routes({
      'GET /api/me': [jsonResponse(200, me({ email: null, email_verified: false }))],
      'PUT /api/me/email': [
        jsonResponse(400, { error: 'Current password is incorrect', message: 'Current password is incorrect', code: 'WRONG_PASSWORD', field: 'password' }),
        jsonResponse(409, { error: 'Email taken', message: 'x', code: 'EMAIL_TAKEN', field: 'email' }),
        jsonResponse(202, { message: 'We sent a link to asha.rao@example.com: open it to confirm the address.', email: 'asha.rao@example.com', email_verified: false }),
      ],
    });
    renderPage();
    expect(await within(emailCard()).findByText(/No email address yet/)).toBeTruthy();
    expect(within(emailCard()).queryByRole('button', { name: 'Remove' })).toBeNull();
    const field = within(emailCard()).getByLabelText('Email address');
    expect(field.getAttribute('autocomplete')).toBe('email');
    const password = within(emailCard()).getByLabelText<HTMLInputElement>('Your password');
    expect(password.type).toBe('password');
    expect(password.getAttribute('autocomplete')).toBe('current-password');

    fireEvent.change(field, { target: { value: 'asha.rao@' } });
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Add email' }));
    expect(within(emailCard()).getByText('Enter an email address such as name@example.com')).toBeTruthy();
    expect(api.calls('PUT /api/me/email')).toHaveLength(0);

    fireEvent.change(field, { target: { value: ' asha.rao@example.com ' } });
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Add email' }));
    expect(within(emailCard()).getByText('Enter your password')).toBeTruthy();
    expect(document.activeElement).toBe(password);
    expect(api.calls('PUT /api/me/email')).toHaveLength(0);

    fireEvent.change(password, { target: { value: 'not-it' } });
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Add email' }));
    expect(await within(emailCard()).findByText('Current password is incorrect')).toBeTruthy();
    expect(document.activeElement).toBe(password);
    expect(api.body('PUT /api/me/email', 0)).toEqual({ email: 'asha.rao@example.com', password: 'not-it' });

    fireEvent.change(password, { target: { value: 'secret1' } });
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Add email' }));
    expect(await within(emailCard()).findByText('Another account has confirmed this email address: use another one')).toBeTruthy();

    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Add email' }));
    expect((await within(emailCard()).findByRole('status')).textContent).toContain('We sent a link to asha.rao@example.com');
    expect(api.body('PUT /api/me/email', 2)).toEqual({ email: 'asha.rao@example.com', password: 'secret1' });
    expect(password.value).toBe('');
    expect(within(emailCard()).getByText('asha.rao@example.com')).toBeTruthy();
    expect(within(emailCard()).getByText('Waiting for confirmation', { selector: '.badge' })).toBeTruthy();
    expect(within(emailCard()).getByLabelText<HTMLInputElement>('New email address').value).toBe('');
  });

  it('removes the address with the current password, after asking', async () => {
    const api = routes({
      'GET /api/me': [jsonResponse(200, me({ confirmed_email: 'asha@example.com' }))],
      'DELETE /api/me/email': [
        jsonResponse(400, { error: 'Current password is incorrect', message: 'x', code: 'WRONG_PASSWORD', field: 'password' }),
        noContent(),
      ],
    });
    renderPage();
    await within(emailCard()).findByText('asha@example.com');
    const password = within(emailCard()).getByLabelText<HTMLInputElement>('Your password');
    // No password: its field asks for it, and no dialog opens.
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Remove' }));
    expect(within(emailCard()).getByText('Enter your password')).toBeTruthy();
    expect(document.activeElement).toBe(password);
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.change(password, { target: { value: 'not-it' } });
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Remove' }));
    let dialog = screen.getByRole('dialog', { name: 'Remove your email address?' });
    expect(dialog.textContent).toContain('We will email asha@example.com a link that puts it back');
    expect(api.calls('DELETE /api/me/email')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(emailCard()).findByText('Current password is incorrect')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(emailCard()).getByText('asha@example.com')).toBeTruthy();
    expect(api.body('DELETE /api/me/email', 0)).toEqual({ password: 'not-it' });

    fireEvent.change(password, { target: { value: 'secret1' } });
    fireEvent.click(within(emailCard()).getByRole('button', { name: 'Remove' }));
    dialog = screen.getByRole('dialog', { name: 'Remove your email address?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await within(emailCard()).findByText(/No email address yet/)).toBeTruthy();
    expect(api.calls('DELETE /api/me/email')).toHaveLength(2);
    expect(api.body('DELETE /api/me/email', 1)).toEqual({ password: 'secret1' });
    expect(api.calls('DELETE /api/me/email')[1]![1]!.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(password.value).toBe('');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toasts()).toContain('success: Email address removed');
  });

  it('changes the password with the bidder route and keeps the session with the new token', async () => {
    const api = routes({
      'POST /api/change-password': [
        jsonResponse(400, { error: 'Current password is incorrect', code: 'WRONG_PASSWORD' }),
        jsonResponse(200, { message: 'ok', token: 'u-new' }),
      ],
    });
    renderPage();
    const card = screen.getByRole('region', { name: 'Change Password' });
    const fill = (current: string, next: string, confirm: string) => {
      fireEvent.change(within(card).getByLabelText('Current Password'), { target: { value: current } });
      fireEvent.change(within(card).getByLabelText('New Password'), { target: { value: next } });
      fireEvent.change(within(card).getByLabelText('Confirm New Password'), { target: { value: confirm } });
      fireEvent.click(within(card).getByRole('button', { name: 'Change Password' }));
    };
    fill('secret1', 'newpass1', 'newpass2');
    expect(within(card).getByText('New passwords do not match')).toBeTruthy();
    expect(api.calls('POST /api/change-password')).toHaveLength(0);

    fill('wrong', 'newpass1', 'newpass1');
    await waitFor(() => expect(toasts()).toContain('error: Current password is incorrect'));
    expect(useSession.getState().userToken).toBe('u-tok');

    fill('secret1', 'newpass1', 'newpass1');
    await waitFor(() => expect(toasts()).toContain('success: Password changed successfully!'));
    expect(api.body('POST /api/change-password', 1)).toEqual({ password: 'secret1', new_password: 'newpass1' });
    expect(api.calls('POST /api/change-password')[1]![1]!.headers).toMatchObject({ authorization: 'Bearer u-tok' });
    expect(useSession.getState()).toMatchObject({ userToken: 'u-new', user: sampleUser });
    expect(localStorage.getItem('token')).toBe('u-new');
  });

  it('shows the stored billing details and says what invoices are made of, read with the user token', async () => {
    const api = routes({ 'GET /api/me/billing': [jsonResponse(200, billing({ name: 'Acme Traders', address: { ...bengaluru, line2: 'Floor 3' }, gstin: '29AAGCB7383J1Z4' }))] });
    renderPage();
    await waitFor(() => expect(billingField('Name').value).toBe('Acme Traders'));
    expect(within(billingCard()).getByText(/Your invoices are made out to these details/).textContent).toContain('Invoices already issued keep the details they were issued with');
    expect([
      'Address line 1', 'Address line 2 (optional)', 'City', 'PIN code', 'State', 'GSTIN (optional)',
    ].map((l) => billingField(l).value)).toEqual(['7 Residency Road', 'Floor 3', 'Bengaluru', '560025', '29', '29AAGCB7383J1Z4']);
    expect(within(billingCard()).getByRole('option', { name: 'Karnataka (29)' })).toBeTruthy();
    expect(within(billingCard()).getByText(/For a business buyer/)).toBeTruthy();
    expect(api.calls('GET /api/me/billing')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer u-tok' });
  });

  it('stops missing fields, a bad PIN and a GSTIN of another state before any request, each under its field', async () => {
    const api = routes();
    renderPage();
    await waitFor(() => expect(billingField('Name').value).toBe(''));
    fireEvent.click(saveBillingButton());
    for (const label of ['Name', 'Address line 1', 'City', 'PIN code', 'State']) {
      expect(billingField(label).getAttribute('aria-invalid'), label).toBe('true');
    }
    expect(billingField('Address line 2 (optional)').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(billingField('Name'));

    fillBilling({ Name: 'Acme Traders', 'Address line 1': '7 Residency Road', City: 'Bengaluru', 'PIN code': '56002', State: '29', 'GSTIN (optional)': '27aapfu0939f1zv' });
    expect(billingField('GSTIN (optional)').value).toBe('27AAPFU0939F1ZV');
    fireEvent.click(saveBillingButton());
    const pin = billingField('PIN code');
    expect(document.getElementById(pin.getAttribute('aria-describedby')!)!.textContent).toBe('Enter a PIN code of 6 digits, e.g. 411001');
    const gstin = billingField('GSTIN (optional)');
    expect(document.getElementById(gstin.getAttribute('aria-describedby')!)!.textContent).toBe('GSTIN must begin with the state code of the address');
    expect(billingField('Name').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(pin);
    expect(api.calls('PUT /api/me/billing')).toHaveLength(0);
  });

  it('saves the whole of them and shows the answer; a server refusal lands under its field, else a toast', async () => {
    const api = routes({
      'GET /api/me/billing': [jsonResponse(200, billing({ name: 'Asha Rao', address: bengaluru, gstin: null }))],
      'PUT /api/me/billing': [
        jsonResponse(400, { error: 'address.pin must be a PIN code of 6 digits', message: 'x', code: 'VALIDATION', field: 'address.pin' }),
        jsonResponse(500, {}),
        jsonResponse(200, billing({ name: 'Acme Traders', address: { ...bengaluru, line2: 'Floor 3' }, gstin: '29AAGCB7383J1Z4' }, '2026-03-02T10:00:00.000Z')),
      ],
    });
    renderPage();
    await waitFor(() => expect(billingField('Name').value).toBe('Asha Rao'));
    fillBilling({ Name: ' Acme Traders ', 'Address line 2 (optional)': 'Floor 3', 'GSTIN (optional)': '29AAGCB7383J1Z4' });

    fireEvent.click(saveBillingButton());
    const pin = billingField('PIN code');
    await waitFor(() => expect(pin.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(pin.getAttribute('aria-describedby')!)!.textContent).toBe('address.pin must be a PIN code of 6 digits');
    expect(document.activeElement).toBe(pin);
    const sent = { name: 'Acme Traders', address: { ...bengaluru, line2: 'Floor 3' }, gstin: '29AAGCB7383J1Z4' };
    expect(api.body('PUT /api/me/billing', 0)).toEqual(sent);
    expect(api.calls('PUT /api/me/billing')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer u-tok' });
    // Editing the field clears its error.
    fillBilling({ 'PIN code': '560001' });
    expect(pin.getAttribute('aria-invalid')).toBeNull();

    fireEvent.click(saveBillingButton());
    await waitFor(() => expect(toasts()).toContain('error: Could not save your billing details. Please try again.'));
    expect(within(billingCard()).queryByText(/must be/)).toBeNull();

    fireEvent.click(saveBillingButton());
    await waitFor(() => expect(toasts()).toContain('success: Billing details saved'));
    expect(api.body('PUT /api/me/billing', 2)).toEqual({ ...sent, address: { ...sent.address, pin: '560001' } });
    // The card shows the answer (the server's PIN), no second read.
    expect(billingField('PIN code').value).toBe('560025');
    expect(billingField('Name').value).toBe('Acme Traders');
    expect(billingField('Address line 2 (optional)').value).toBe('Floor 3');
    expect(billingField('GSTIN (optional)').value).toBe('29AAGCB7383J1Z4');
    expect(api.calls('GET /api/me/billing')).toHaveLength(1);
  });

  it('sends no GSTIN as null and an empty line 2 as null', async () => {
    const api = routes({ 'PUT /api/me/billing': [(body) => jsonResponse(200, billing(body as BillingDetails))] });
    renderPage();
    await waitFor(() => expect(billingField('Name').value).toBe(''));
    fillBilling({ Name: 'Asha Rao', 'Address line 1': ' 7 Residency Road ', City: 'Bengaluru', 'PIN code': '560025', State: '29', 'Address line 2 (optional)': '  ' });
    fireEvent.click(saveBillingButton());
    await waitFor(() => expect(toasts()).toContain('success: Billing details saved'));
    expect(api.body('PUT /api/me/billing')).toEqual({ name: 'Asha Rao', address: bengaluru, gstin: null });
    expect(billingField('Address line 1').value).toBe('7 Residency Road');
  });
});
