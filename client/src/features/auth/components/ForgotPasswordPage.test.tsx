import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocationProbe, jsonResponse, resetAppState, routeFetch } from '../../../test/utils';
import { ForgotPasswordPage } from './ForgotPasswordPage';

const SENT = 'If an account with a confirmed email address matches, we have sent it a link to reset the password.';

function renderForgot(portal: 'user' | 'admin') {
  return render(
    <MemoryRouter initialEntries={[`/${portal}/forgot-password`]}>
      <Routes>
        <Route path="/user/forgot-password" element={<ForgotPasswordPage portal="user" />} />
        <Route path="/admin/forgot-password" element={<ForgotPasswordPage portal="admin" />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

function ask(text: string) {
  fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
}

describe('ForgotPasswordPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('sends a bidder’s username as username, then shows the server’s message in place of the form', async () => {
    const api = routeFetch({ 'POST /api/password/forgot': [jsonResponse(202, { message: SENT })] });
    renderForgot('user');
    const field = screen.getByLabelText('Username or email');
    expect(field.getAttribute('autocomplete')).toBe('username');
    ask(' asha ');

    expect((await screen.findByRole('status')).textContent).toContain(SENT);
    expect(api.body('POST /api/password/forgot')).toEqual({ username: 'asha', role: 'user' });
    // The form is gone; the way back to sign in is there.
    expect(screen.queryByLabelText('Username or email')).toBeNull();
    fireEvent.click(screen.getAllByRole('link', { name: 'Back to sign in' })[0]!);
    expect(screen.getByTestId('location').textContent).toBe('/user/login');
  });

  it('sends text with an @ as email, with the admin role from the admin portal', async () => {
    const api = routeFetch({ 'POST /api/password/forgot': [jsonResponse(202, { message: SENT })] });
    renderForgot('admin');
    ask('  Ravi@Example.com ');
    await screen.findByRole('status');
    expect(api.body('POST /api/password/forgot')).toEqual({ email: 'Ravi@Example.com', role: 'admin' });
    for (const link of screen.getAllByRole('link', { name: 'Back to sign in' })) expect(link.getAttribute('href')).toBe('/admin/login');
  });

  it('asks for the field before calling the server', () => {
    const api = routeFetch({});
    renderForgot('user');
    ask('   ');
    expect(api.fn).not.toHaveBeenCalled();
    expect(screen.getByText('Username or email is required')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Username or email'));
  });

  it('a refusal (too many requests) is said under the form, which stays', async () => {
    routeFetch({ 'POST /api/password/forgot': [jsonResponse(429, { error: 'Too many requests: try again in a minute', message: 'x', code: 'RATE_LIMITED' })] });
    renderForgot('user');
    ask('asha');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests: try again in a minute');
    expect(screen.getByLabelText('Username or email')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
