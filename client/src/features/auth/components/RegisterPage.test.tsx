import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { LocationProbe, jsonResponse, sentBody, mockFetch, resetAppState, routeFetch, sampleAdmin, sampleUser } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { RegisterPage } from './RegisterPage';

function renderRegister(portal: 'user' | 'admin') {
  return render(
    <MemoryRouter initialEntries={[`/${portal}/register`]}>
      <Routes>
        <Route path="/user/register" element={<RegisterPage portal="user" />} />
        <Route path="/admin/register" element={<RegisterPage portal="admin" />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
      <Toaster />
    </MemoryRouter>,
  );
}

function fill() {
  fireEvent.change(screen.getByLabelText('Full Name'), { target: { value: 'Asha Rao' } });
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'asha' } });
  fireEvent.change(screen.getByLabelText('Mobile Number'), { target: { value: '9876543210' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
  fireEvent.click(screen.getByRole('button', { name: 'Register' }));
}

describe('RegisterPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('labels every field and uses a telephone input for the mobile number', () => {
    renderRegister('user');
    expect(screen.getByLabelText('Mobile Number').getAttribute('type')).toBe('tel');
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByLabelText('Full Name').getAttribute('name')).toBe('name');
  });

  it('registers a user and signs them in: the dashboard, not the login page', async () => {
    const api = routeFetch({
      'POST /api/register': [jsonResponse(201, { message: 'Registered', user: sampleUser })],
      'POST /api/login': [jsonResponse(200, { token: 'u-tok', user: sampleUser })],
    });
    renderRegister('user');
    fill();

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/user/dashboard'));
    expect((await screen.findByRole('status')).textContent).toContain('Registration successful! You are signed in.');
    expect(useSession.getState()).toMatchObject({ userToken: 'u-tok', user: sampleUser });
    expect(api.fn.mock.calls.map((c) => c[0])).toEqual(['/api/register', '/api/login']);
    expect(sentBody(api.fn, 0)).toEqual({ name: 'Asha Rao', username: 'asha', mobile_number: '9876543210', password: 'secret1' });
    expect(sentBody(api.fn, 1)).toEqual({ username: 'asha', password: 'secret1' });
  });

  it('registers an admin with role admin and signs them in', async () => {
    const api = routeFetch({
      'POST /api/admin/register': [jsonResponse(201, { message: 'Registered', admin: sampleAdmin })],
      'POST /api/admin/login': [jsonResponse(200, { token: 'a-tok', admin: sampleAdmin })],
    });
    renderRegister('admin');
    fill();

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/dashboard'));
    expect((await screen.findByRole('status')).textContent).toContain('Admin registration successful! You are signed in.');
    expect(sentBody(api.fn, 0)).toMatchObject({ role: 'admin' });
  });

  it('should the sign-in after registering fail, says so in the spec’s words and goes to the login page', async () => {
    routeFetch({
      'POST /api/register': [jsonResponse(201, { message: 'Registered', user: sampleUser })],
      'POST /api/login': [jsonResponse(429, { error: 'Too many attempts', message: 'Too many attempts', code: 'RATE_LIMITED' })],
    });
    renderRegister('user');
    fill();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/user/login'));
    expect((await screen.findByRole('status')).textContent).toContain('Registration successful! Please login.');
    expect(useSession.getState().userToken).toBeNull();
  });

  it('a taken username is said under the field, and the form stays', async () => {
    mockFetch(jsonResponse(409, { error: 'Username already exists', message: 'Username already exists', code: 'USERNAME_TAKEN', field: 'username' }));
    renderRegister('user');
    fill();
    expect(await screen.findByText('This username is taken: choose another')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    expect(screen.getByTestId('location').textContent).toBe('/user/register');
  });

  it('a refusal of the server about a field is said under it in plain words, never with the API’s field name', async () => {
    mockFetch(jsonResponse(400, { error: 'mobile_number must be 7–15 digits with an optional leading +', message: 'x', code: 'VALIDATION', field: 'mobile_number' }));
    renderRegister('user');
    fill();
    expect(await screen.findByText('Enter 7 to 15 digits; a leading + is fine')).toBeTruthy();
    expect(document.body.textContent).not.toContain('mobile_number');
  });

  it('checks each field in plain words before sending, shows the rules from the start, and takes a mobile number as people type it', async () => {
    renderRegister('user');
    // The rules are there before anything fails.
    expect(screen.getByText('At least 6 characters')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('aria-describedby')).toBe('user-register-password-hint');
    const fetchMock = mockFetch(jsonResponse(201, {}));
    fireEvent.change(screen.getByLabelText('Full Name'), { target: { value: 'Asha Rao' } });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'asha rao' } });
    fireEvent.change(screen.getByLabelText('Mobile Number'), { target: { value: '98765' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByText(/^Use 3 to 32 letters or digits; only _ \. and - besides, and no spaces$/)).toBeTruthy();
    expect(screen.getByText('Enter 7 to 15 digits; a leading + is fine')).toBeTruthy();
    expect(screen.getByText(/^Use at least 6 characters/)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));

    const api = routeFetch({ 'POST /api/register': [jsonResponse(201, { message: 'Registered', user: sampleUser })], 'POST /api/login': [jsonResponse(200, { token: 't', user: sampleUser })] });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'asha' } });
    fireEvent.change(screen.getByLabelText('Mobile Number'), { target: { value: '+91 98765-43210' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(api.fn).toHaveBeenCalled());
    expect(sentBody(api.fn, 0)).toMatchObject({ mobile_number: '+919876543210' });
  });

  it('sends the optional email only when one is given, trimmed, and says a link is on its way', async () => {
    renderRegister('user');
    const email = screen.getByLabelText('Email (optional)');
    expect(email.getAttribute('type')).toBe('email');
    expect(email.getAttribute('autocomplete')).toBe('email');
    expect(email.hasAttribute('required')).toBe(false);

    const api = routeFetch({
      'POST /api/register': [jsonResponse(201, { message: 'Registered', user: sampleUser })],
      'POST /api/login': [jsonResponse(200, { token: 'u-tok', user: sampleUser })],
    });
    fireEvent.change(email, { target: { value: '  asha@example.com ' } });
    fill();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/user/dashboard'));
    expect(sentBody(api.fn, 0)).toEqual({ name: 'Asha Rao', username: 'asha', mobile_number: '9876543210', password: 'secret1', email: 'asha@example.com' });
    const toasts = (await screen.findAllByRole('status')).map((t) => t.textContent);
    expect(toasts.some((t) => t?.includes('We sent a link to asha@example.com'))).toBe(true);
  });

  it('an email of spaces alone is not sent', async () => {
    const api = routeFetch({
      'POST /api/admin/register': [jsonResponse(201, { message: 'Registered', admin: sampleAdmin })],
      'POST /api/admin/login': [jsonResponse(200, { token: 'a-tok', admin: sampleAdmin })],
    });
    renderRegister('admin');
    // Admins get no notices: the hint says what their address is for.
    expect(screen.getByText('To reset a forgotten password; we will send a link to confirm it')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email (optional)'), { target: { value: '   ' } });
    fill();
    await waitFor(() => expect(api.fn).toHaveBeenCalled());
    expect(sentBody(api.fn, 0)).not.toHaveProperty('email');
  });

  it('checks a given email before sending, and says an address another account confirmed under the field', async () => {
    const fetchMock = mockFetch(jsonResponse(201, {}));
    renderRegister('admin');
    fireEvent.change(screen.getByLabelText('Email (optional)'), { target: { value: 'ravi@example' } });
    fill();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByText('Enter an email address such as name@example.com')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Email (optional)'));

    const api = routeFetch({ 'POST /api/admin/register': [jsonResponse(409, { error: 'Email taken', message: 'x', code: 'EMAIL_TAKEN', field: 'email' })] });
    fireEvent.change(screen.getByLabelText('Email (optional)'), { target: { value: 'ravi@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Another account has confirmed this email address: use another one')).toBeTruthy();
    expect(sentBody(api.fn, 0)).toMatchObject({ email: 'ravi@example.com', role: 'admin' });
  });

  it('falls back to "Registration failed"', async () => {
    mockFetch(new Response('', { status: 500 }));
    renderRegister('user');
    fill();
    expect((await screen.findByRole('status')).textContent).toContain('Registration failed');
  });

  it('requires every field before calling the server', () => {
    const fetchMock = mockFetch(jsonResponse(201, {}));
    renderRegister('user');
    fireEvent.change(screen.getByLabelText('Full Name'), { target: { value: 'Asha Rao' } });
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByText('Full Name is required')).toBeNull();
    expect(screen.getByText('Mobile Number is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  });
});
