import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { LocationProbe, jsonResponse, sentBody, mockFetch, resetAppState, sampleAdmin, sampleUser } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { LoginPage } from './LoginPage';

function renderLogin(portal: 'user' | 'admin') {
  return render(
    <MemoryRouter initialEntries={[`/${portal}/login`]}>
      <Routes>
        <Route path="/user/login" element={<LoginPage portal="user" />} />
        <Route path="/admin/login" element={<LoginPage portal="admin" />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
      <Toaster />
    </MemoryRouter>,
  );
}

function fillAndSubmit(username: string, password: string) {
  fireEvent.change(screen.getByLabelText('Username'), { target: { value: username } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Login' }));
}

async function toastText(): Promise<string> {
  const toast = await screen.findByRole('status');
  return toast.textContent ?? '';
}

describe('LoginPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows the server error text when login is refused', async () => {
    mockFetch(jsonResponse(400, { error: 'Invalid username or password', message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }));
    renderLogin('user');
    fillAndSubmit('asha', 'wrong-pass');

    expect(await toastText()).toContain('Invalid username or password');
    // Also under the form, where it stays after the toast has gone.
    expect(screen.getByRole('alert').textContent).toBe('Invalid username or password');
    expect(screen.getByRole('alert').closest('form')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/user/login');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Login' }).disabled).toBe(false);
  });

  it('shows an admin’s refusal under the form too, and clears it when a field is edited', async () => {
    mockFetch(jsonResponse(400, { error: 'Invalid username or password', message: 'Invalid username or password', code: 'INVALID_CREDENTIALS' }));
    renderLogin('admin');
    fillAndSubmit('ravi', 'wrong-pass');

    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('falls back to "Login failed" when the answer has no error text', async () => {
    mockFetch(new Response('upstream down', { status: 502 }));
    renderLogin('user');
    fillAndSubmit('asha', 'secret1');
    expect(await toastText()).toContain('Login failed');
    expect(screen.getByRole('alert').textContent).toBe('Login failed');
  });

  it('falls back to "Login failed" when the server cannot be reached', async () => {
    mockFetch(new TypeError('Failed to fetch'));
    renderLogin('user');
    fillAndSubmit('asha', 'secret1');
    expect(await toastText()).toContain('Login failed');
    expect(screen.getByRole('alert').textContent).toBe('Login failed');
  });

  it('signs a user in, stores the session and goes to /user/dashboard', async () => {
    const fetchMock = mockFetch(jsonResponse(200, { token: 'u-tok', user: sampleUser }));
    renderLogin('user');
    fillAndSubmit(' asha ', 'secret1');

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/user/dashboard'));
    expect(await toastText()).toContain('Login successful!');
    // The first call is the page's demo read (components/demo/DemoHint.tsx), then the login.
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['/api/demo', '/api/login']);
    expect(sentBody(fetchMock, 1)).toEqual({ username: 'asha', password: 'secret1' });
    expect(localStorage.getItem('token')).toBe('u-tok');
    expect(useSession.getState().user?.name).toBe('Asha Rao');
  });

  it('signs an admin in with role admin and goes to /admin/dashboard', async () => {
    const fetchMock = mockFetch(jsonResponse(200, { token: 'a-tok', admin: sampleAdmin }));
    renderLogin('admin');
    fillAndSubmit('ravi', 'secret1');

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/dashboard'));
    expect(await toastText()).toContain('Admin login successful!');
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['/api/demo', '/api/admin/login']);
    expect(sentBody(fetchMock, 1)).toEqual({ username: 'ravi', password: 'secret1', role: 'admin' });
    expect(localStorage.getItem('admin_token')).toBe('a-tok');
  });

  it.each(['user', 'admin'] as const)('links the %s sign-in page to its own forgot-password page', (portal) => {
    mockFetch(jsonResponse(200, {}));
    renderLogin(portal);
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(link.getAttribute('href')).toBe(`/${portal}/forgot-password`);
    fireEvent.click(link);
    expect(screen.getByTestId('location').textContent).toBe(`/${portal}/forgot-password`);
  });

  it('requires both fields before calling the server', () => {
    const fetchMock = mockFetch(jsonResponse(200, {}));
    renderLogin('user');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    // Only the demo read: no login call.
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['/api/demo']);
    expect(screen.getByText('Username is required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  });
});
