import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, resetAppState, routeFetch } from '../../../test/utils';
import { ResetPasswordPage } from './ResetPasswordPage';

const noContent = () => new Response(null, { status: 204 });

function renderReset(search: string) {
  return render(
    <MemoryRouter initialEntries={[`/reset-password${search}`]}>
      <Routes>
        <Route path="/reset-password" element={<ResetPasswordPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

function choose(password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

const hrefs = (links: HTMLElement[]) => links.map((a) => a.getAttribute('href'));

describe('ResetPasswordPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('checks that the two passwords match and the length rule before calling the server', () => {
    const api = routeFetch({ 'POST /api/password/reset': [noContent()] });
    renderReset('?token=tok-1');
    expect(screen.getByLabelText('New password').getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByLabelText('Confirm password').getAttribute('autocomplete')).toBe('new-password');

    choose('secret12', 'secret13');
    expect(screen.getByText('The two passwords do not match')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Confirm password'));

    choose('abc', 'abc');
    expect(screen.getByText('Use at least 6 characters (at most 128)')).toBeTruthy();
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
    expect(api.fn).not.toHaveBeenCalled();
  });

  it('sends the token and the new password, then says it is changed with both sign-in pages', async () => {
    const api = routeFetch({ 'POST /api/password/reset': [noContent()] });
    renderReset('?token=tok-2');
    choose('newpass1', 'newpass1');

    const done = await screen.findByRole('status');
    expect(done.textContent).toContain('Your password has been changed.');
    expect(api.body('POST /api/password/reset')).toEqual({ token: 'tok-2', password: 'newpass1' });
    expect(api.calls('POST /api/password/reset')[0]![1]!.headers).not.toHaveProperty('authorization');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(hrefs(screen.getAllByRole('link', { name: /^Sign in as/ }))).toEqual(['/user/login', '/admin/login']);
  });

  it('with ?portal=admin offers only the admin sign-in page', async () => {
    routeFetch({ 'POST /api/password/reset': [noContent()] });
    renderReset('?token=tok-3&portal=admin');
    choose('newpass1', 'newpass1');
    await screen.findByRole('status');
    expect(hrefs(screen.getAllByRole('link', { name: 'Sign in' }))).toEqual(['/admin/login']);
  });

  it('a used or expired link says so, with a way to ask for a new one', async () => {
    routeFetch({ 'POST /api/password/reset': [jsonResponse(400, { error: 'This link is not valid', message: 'x', code: 'TOKEN_INVALID' })] });
    renderReset('?token=old');
    choose('newpass1', 'newpass1');

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This link has expired or was already used.');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(hrefs([screen.getByRole('link', { name: 'bidder account' }), screen.getByRole('link', { name: 'admin account' })]))
      .toEqual(['/user/forgot-password', '/admin/forgot-password']);
  });

  it('the server’s length refusal goes under the field; another refusal under the form', async () => {
    routeFetch({
      'POST /api/password/reset': [
        jsonResponse(400, { error: 'password must be 6–128 characters', message: 'x', code: 'VALIDATION', field: 'password' }),
        jsonResponse(429, { error: 'Too many attempts', message: 'x', code: 'RATE_LIMITED' }),
      ],
    });
    renderReset('?token=tok-4');
    choose('newpass1', 'newpass1');
    expect(await screen.findByText('Use at least 6 characters (at most 128)')).toBeTruthy();
    expect(document.body.textContent).not.toContain('password must be');

    choose('newpass2', 'newpass2');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts');
  });

  it('a link without a token shows no form', () => {
    const api = routeFetch({});
    renderReset('');
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('This link is incomplete.')).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(api.fn).not.toHaveBeenCalled();
  });
});
