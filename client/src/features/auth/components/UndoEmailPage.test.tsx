import { StrictMode } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, resetAppState, routeFetch } from '../../../test/utils';
import { UndoEmailPage } from './UndoEmailPage';

const noContent = () => new Response(null, { status: 204 });
const UNDO = 'POST /api/email/undo';
const BUTTON = 'Undo the change';

// StrictMode as in main.tsx: mounted twice, the page must still post nothing by itself.
function renderUndo(search: string) {
  return render(
    <StrictMode>
      <MemoryRouter initialEntries={[`/undo-email${search}`]}>
        <Routes>
          <Route path="/undo-email" element={<UndoEmailPage />} />
        </Routes>
      </MemoryRouter>
    </StrictMode>,
  );
}

/** Types the new password twice (or as given) and presses the one button. */
function submit(password = 'newpass1', confirm = password) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: confirm } });
  fireEvent.click(screen.getByRole('button', { name: BUTTON }));
}

describe('UndoEmailPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('posts nothing on load (mail scanners open links); the form sends the token and a new password, then offers the sign-in page', async () => {
    const api = routeFetch({ [UNDO]: [noContent()] });
    renderUndo('?token=undo-1');
    await Promise.resolve();
    expect(api.fn).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { level: 1, name: 'Undo the email change?' })).toBeTruthy();
    expect(screen.getByLabelText('New password').getAttribute('autocomplete')).toBe('new-password');
    expect(screen.getByLabelText('Confirm password').getAttribute('autocomplete')).toBe('new-password');

    submit('newpass1');
    const done = await screen.findByRole('status');
    expect(done.textContent).toContain('Your email address is back, and your new password is set.');
    expect(done.textContent).toContain('has been signed out');
    expect(api.calls(UNDO)).toHaveLength(1);
    expect(api.body(UNDO)).toEqual({ token: 'undo-1', password: 'newpass1' });
    expect(api.calls(UNDO)[0]![1]!.headers).not.toHaveProperty('authorization');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/user/login');
    expect(screen.queryByRole('link', { name: 'Reset your password' })).toBeNull();
  });

  it('with ?portal=admin sends the admin to the admin’s sign-in page', async () => {
    routeFetch({ [UNDO]: [noContent()] });
    renderUndo('?token=undo-2&portal=admin');
    submit();
    await screen.findByRole('status');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/admin/login');
  });

  it('checks the length rule and that the two passwords match before calling the server', () => {
    const api = routeFetch({ [UNDO]: [noContent()] });
    renderUndo('?token=undo-rules');
    submit('secret12', 'secret13');
    expect(screen.getByText('The two passwords do not match')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Confirm password'));

    submit('abc');
    expect(screen.getByText('Use at least 6 characters (at most 128)')).toBeTruthy();
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('New password'));
    expect(api.fn).not.toHaveBeenCalled();
  });

  it('the server’s password rule is said on the field, and the form stays to try again', async () => {
    const api = routeFetch({ [UNDO]: [jsonResponse(400, { error: 'Password must be at least 6 characters long', message: 'x', code: 'VALIDATION', field: 'password' }), noContent()] });
    renderUndo('?token=undo-short');
    submit('newpass1');
    expect(await screen.findByText('Use at least 6 characters (at most 128)')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    submit('newpass2');
    expect((await screen.findByRole('status')).textContent).toContain('Your email address is back');
    expect(api.body(UNDO, 1)).toEqual({ token: 'undo-short', password: 'newpass2' });
  });

  it('shows a busy button while posting, which a second press does not send again', async () => {
    let answer: (r: Response) => void = () => undefined;
    const api = routeFetch({ [UNDO]: [noContent()] });
    api.fn.mockImplementationOnce(() => new Promise<Response>((resolve) => { answer = resolve; }));
    renderUndo('?token=undo-3');
    submit();
    fireEvent.click(screen.getByRole('button', { name: /Undo/ }));

    const busy = await screen.findByRole('button', { name: 'Undoing…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(busy);
    expect(api.calls(UNDO)).toHaveLength(1);

    answer(noContent());
    expect((await screen.findByRole('status')).textContent).toContain('Your email address is back');
    expect(api.calls(UNDO)).toHaveLength(1);
  });

  it('a used or expired link says so, with no form', async () => {
    routeFetch({ [UNDO]: [jsonResponse(400, { error: 'This link is not valid', message: 'x', code: 'TOKEN_INVALID' })] });
    renderUndo('?token=undo-old');
    submit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This link has expired or was already used.');
    expect(alert.textContent).toContain('works once, for 7 days');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('an address another account has confirmed since says so, with no form', async () => {
    routeFetch({ [UNDO]: [jsonResponse(409, { error: 'Email taken', message: 'x', code: 'EMAIL_TAKEN' })] });
    renderUndo('?token=undo-taken');
    submit();
    expect((await screen.findByRole('alert')).textContent).toContain('Another account has confirmed this email address since.');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
  });

  it('another failure shows the server’s message and keeps the form, to try again', async () => {
    const api = routeFetch({ [UNDO]: [jsonResponse(429, { error: 'Too many attempts', message: 'x', code: 'RATE_LIMITED' }), noContent()] });
    renderUndo('?token=undo-4');
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts');

    fireEvent.click(screen.getByRole('button', { name: BUTTON }));
    expect((await screen.findByRole('status')).textContent).toContain('Your email address is back');
    expect(api.calls(UNDO)).toHaveLength(2);
  });

  it('a failure without the server’s text says so in its own words', async () => {
    routeFetch({ [UNDO]: [new TypeError('Failed to fetch')] });
    renderUndo('?token=undo-5');
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not undo the change. Please try again.');
    expect(screen.getByRole('button', { name: BUTTON })).toBeTruthy();
  });

  it('a link without a token says it is incomplete and offers no form', () => {
    const api = routeFetch({});
    renderUndo('');
    expect(screen.getByRole('alert').textContent).toContain('This link is incomplete.');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(api.fn).not.toHaveBeenCalled();
  });
});
