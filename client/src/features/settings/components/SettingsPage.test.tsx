import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { AdminSettings } from '@auction/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../../components/ui/toast/toast-store';
import { jsonResponse, resetAppState, routeFetch, sampleAdmin, type FetchAnswer } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { systemItems, validatePasswordChange } from '../model';
import { SettingsPage } from './SettingsPage';

const settings: AdminSettings = { auto_settle: true, admin_signup: 'closed', min_increment: 1, live_frame_ms: 50, timezone: 'Asia/Kolkata', soft_close_s: 120, max_extension_s: 3600, media_max_mb: 8 };
const toasts = () => useToasts.getState().toasts.map((t) => `${t.kind}: ${t.message}`);

const adminMe = { role: 'admin', ...sampleAdmin, email: null, email_verified: false };

/** The page's calls: GET /me (the Email card) answered unless a test says otherwise. */
function routes(over: Record<string, FetchAnswer[]>) {
  return routeFetch({ 'GET /api/me': [jsonResponse(200, adminMe)], ...over });
}

function renderPage() {
  return render(<MemoryRouter><SettingsPage /></MemoryRouter>);
}

function fillPassword(current: string, next: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('Current Password'), { target: { value: current } });
  fireEvent.change(screen.getByLabelText('New Password'), { target: { value: next } });
  fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
}

describe('validatePasswordChange', () => {
  it('checks the match first, then the length', () => {
    expect(validatePasswordChange({ current: 'old', next: 'abcdef', confirm: 'abcdeg' })).toEqual({ confirm: 'New passwords do not match' });
    expect(validatePasswordChange({ current: 'old', next: 'abc', confirm: 'abc' })).toEqual({ next: 'Password must be at least 6 characters long' });
    expect(validatePasswordChange({ current: 'old', next: 'abcdef', confirm: 'abcdef' })).toEqual({});
  });
});

describe('systemItems', () => {
  it('shows what the server really does', () => {
    const rows = systemItems({ ...settings, auto_settle: false, admin_signup: 'open', timezone: 'UTC' });
    expect(rows.find((r) => r.label === 'Auto settlement')).toMatchObject({ value: 'Disabled', tone: 'neutral' });
    expect(rows.find((r) => r.label === 'Admin signup')).toMatchObject({ value: 'Open' });
    expect(rows.find((r) => r.label === 'Time zone')?.value).toBe('UTC');
    expect(rows.find((r) => r.label === 'Soft close')?.value).toBe('2 min, up to 1 h');
    expect(systemItems({ ...settings, soft_close_s: 0 }).find((r) => r.label === 'Soft close')?.value).toBe('Off');
    expect(systemItems({ ...settings, soft_close_s: 90, max_extension_s: 600 }).find((r) => r.label === 'Soft close')?.value).toBe('90 s, up to 10 min');
  });
});

describe('SettingsPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.getState().setAdminSession({ token: 'old-token', admin: sampleAdmin });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows the profile, a read-only username and the server settings', async () => {
    routes({ 'GET /api/admin/settings': [jsonResponse(200, settings)] });
    renderPage();
    expect(screen.getByLabelText<HTMLInputElement>('Full Name').value).toBe('Ravi Kumar');
    const username = screen.getByLabelText<HTMLInputElement>('Username');
    expect(username.value).toBe('ravi');
    expect(username.readOnly).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('Mobile Number').value).toBe('9123456780');

    const panel = screen.getByRole('region', { name: 'System Settings' });
    await within(panel).findByText('Asia/Kolkata');
    const value = (label: string) => within(panel).getByText(label).parentElement!.querySelector('dd')!.textContent;
    // The four the specification names first, with the values in force.
    expect([...panel.querySelectorAll('dt')].map((dt) => dt.textContent).slice(0, 4))
      .toEqual(['Default auction duration', 'Minimum bid increment', 'Auto settlement', 'Notifications']);
    expect(value('Default auction duration')).toBe('7 days');
    expect(value('Minimum bid increment')).toBe('₹1');
    expect(value('Auto settlement')).toBe('Enabled');
    expect(value('Notifications')).toBe('Enabled');
    expect(value('Admin signup')).toBe('Closed');
    expect(value('Live frame')).toBe('50 ms');
  });

  it('saves the profile and updates the session admin (the header name)', async () => {
    const api = routes({
      'GET /api/admin/settings': [jsonResponse(200, settings)],
      'PUT /api/admin/profile': [
        jsonResponse(400, { error: 'mobile_number must be 7 to 15 digits', code: 'VALIDATION' }),
        (body) => jsonResponse(200, { message: 'ok', admin: { ...sampleAdmin, ...(body as object) } }),
      ],
    });
    renderPage();
    fireEvent.change(screen.getByLabelText('Full Name'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    expect(screen.getByText('Enter your full name')).toBeTruthy();
    expect(api.calls('PUT /api/admin/profile')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Full Name'), { target: { value: '  Ravi K  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(toasts()).toContain('error: mobile_number must be 7 to 15 digits'));
    expect(useSession.getState().admin?.name).toBe('Ravi Kumar');

    fireEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(toasts()).toContain('success: Profile updated successfully!'));
    expect(api.body('PUT /api/admin/profile', 1)).toEqual({ name: 'Ravi K', mobile_number: '9123456780' });
    expect(useSession.getState().admin?.name).toBe('Ravi K');
    expect(useSession.getState().adminToken).toBe('old-token');
    expect(JSON.parse(localStorage.getItem('admin')!)).toMatchObject({ name: 'Ravi K' });
  });

  it('checks the new password before calling, then stores the returned token', async () => {
    const api = routes({
      'GET /api/admin/settings': [jsonResponse(200, settings)],
      'POST /api/admin/change-password': [
        jsonResponse(400, { error: 'Current password is incorrect', code: 'WRONG_PASSWORD' }),
        jsonResponse(200, { message: 'ok', token: 'new-token' }),
      ],
    });
    renderPage();
    fillPassword('secret1', 'abcdef', 'abcdeg');
    expect(screen.getByText('New passwords do not match')).toBeTruthy();
    fillPassword('secret1', 'abc', 'abc');
    expect(screen.getByText('Password must be at least 6 characters long')).toBeTruthy();
    expect(api.calls('POST /api/admin/change-password')).toHaveLength(0);

    fillPassword('wrong', 'newpass1', 'newpass1');
    await waitFor(() => expect(toasts()).toContain('error: Current password is incorrect'));
    expect(useSession.getState().adminToken).toBe('old-token');

    fillPassword('secret1', 'newpass1', 'newpass1');
    await waitFor(() => expect(toasts()).toContain('success: Password changed successfully!'));
    expect(api.body('POST /api/admin/change-password', 1)).toEqual({ username: 'ravi', password: 'secret1', new_password: 'newpass1', role: 'admin' });
    expect(api.calls('POST /api/admin/change-password')[1]![1]!.headers).toMatchObject({ authorization: 'Bearer old-token' });
    expect(useSession.getState().adminToken).toBe('new-token');
    expect(localStorage.getItem('admin_token')).toBe('new-token');
    expect(screen.getByLabelText<HTMLInputElement>('Current Password').value).toBe('');
  });

  it('falls back to the spec toast when the server gives no text', async () => {
    routes({
      'GET /api/admin/settings': [jsonResponse(500, {})],
      'POST /api/admin/change-password': [jsonResponse(500, {})],
    });
    renderPage();
    fillPassword('secret1', 'newpass1', 'newpass1');
    await waitFor(() => expect(toasts()).toContain('error: Failed to change password'));
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load data');
  });

  it('shows the admin’s email address and sets a new one with the admin token (no notification settings)', async () => {
    const api = routes({
      'GET /api/admin/settings': [jsonResponse(200, settings)],
      'GET /api/me': [jsonResponse(200, { ...adminMe, email: 'ravi@example.com', email_verified: true })],
      'PUT /api/me/email': [jsonResponse(202, { message: 'We sent a link to ravi.k@example.com: open it to confirm the address.', email: 'ravi.k@example.com', email_verified: false })],
    });
    renderPage();
    const card = screen.getByRole('region', { name: 'Email' });
    expect(await within(card).findByText('ravi@example.com')).toBeTruthy();
    expect(within(card).getByText('Confirmed', { selector: '.badge' })).toBeTruthy();
    expect(api.calls('GET /api/me')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer old-token' });
    expect(screen.queryByRole('region', { name: 'Email notifications' })).toBeNull();

    fireEvent.change(within(card).getByLabelText('New email address'), { target: { value: 'ravi.k@example.com' } });
    fireEvent.change(within(card).getByLabelText('Your password'), { target: { value: 'secret1' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Change email' }));
    expect((await within(card).findByRole('status')).textContent).toContain('We sent a link to ravi.k@example.com');
    expect(api.body('PUT /api/me/email')).toEqual({ email: 'ravi.k@example.com', password: 'secret1' });
    expect(api.calls('PUT /api/me/email')[0]![1]!.headers).toMatchObject({ authorization: 'Bearer old-token' });
    expect(within(card).getByText('Waiting for confirmation', { selector: '.badge' })).toBeTruthy();
  });
});
