import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { LocationProbe, jsonResponse, sentBody, mockFetch, resetAppState, sampleUser } from '../../../test/utils';
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

  it('registers a user and goes to /user/login', async () => {
    const fetchMock = mockFetch(jsonResponse(201, { message: 'Registered', user: sampleUser }));
    renderRegister('user');
    fill();

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/user/login'));
    expect((await screen.findByRole('status')).textContent).toContain('Registration successful! Please login.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/register');
    expect(sentBody(fetchMock)).toEqual({
      name: 'Asha Rao', username: 'asha', mobile_number: '9876543210', password: 'secret1',
    });
  });

  it('registers an admin with role admin and goes to /admin/login', async () => {
    const fetchMock = mockFetch(jsonResponse(201, { message: 'Registered', admin: {} }));
    renderRegister('admin');
    fill();

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/admin/login'));
    expect((await screen.findByRole('status')).textContent).toContain('Admin registration successful! Please login.');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/register');
    expect(sentBody(fetchMock)).toMatchObject({ role: 'admin' });
  });

  it('shows the server error text when registration is refused', async () => {
    mockFetch(jsonResponse(409, { error: 'Username already exists', message: 'Username already exists', code: 'USERNAME_TAKEN' }));
    renderRegister('user');
    fill();
    expect((await screen.findByRole('status')).textContent).toContain('Username already exists');
    expect(screen.getByTestId('location').textContent).toBe('/user/register');
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
