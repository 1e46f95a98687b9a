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

const press = () => fireEvent.click(screen.getByRole('button', { name: BUTTON }));

describe('UndoEmailPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('posts nothing on load (mail scanners open links); the button undoes the change and sends the bidder to reset their password', async () => {
    const api = routeFetch({ [UNDO]: [noContent()] });
    renderUndo('?token=undo-1');
    await Promise.resolve();
    expect(api.fn).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { level: 1, name: 'Undo the email change?' })).toBeTruthy();

    press();
    const done = await screen.findByRole('status');
    expect(done.textContent).toContain('Your email address is back.');
    expect(done.textContent).toContain('Every session of this account was signed out');
    expect(done.textContent).toContain('reset it now');
    expect(api.calls(UNDO)).toHaveLength(1);
    expect(api.body(UNDO)).toEqual({ token: 'undo-1' });
    expect(api.calls(UNDO)[0]![1]!.headers).not.toHaveProperty('authorization');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/user/forgot-password');
  });

  it('with ?portal=admin sends the admin to the admin’s forgot-password page', async () => {
    routeFetch({ [UNDO]: [noContent()] });
    renderUndo('?token=undo-2&portal=admin');
    press();
    await screen.findByRole('status');
    expect(screen.getByRole('link', { name: 'Reset your password' }).getAttribute('href')).toBe('/admin/forgot-password');
  });

  it('shows a busy button while posting, which a second press does not send again', async () => {
    let answer: (r: Response) => void = () => undefined;
    const api = routeFetch({ [UNDO]: [noContent()] });
    api.fn.mockImplementationOnce(() => new Promise<Response>((resolve) => { answer = resolve; }));
    renderUndo('?token=undo-3');
    const button = screen.getByRole('button', { name: BUTTON });
    fireEvent.click(button);
    fireEvent.click(button);

    const busy = await screen.findByRole('button', { name: 'Undoing…' });
    expect(busy.hasAttribute('disabled')).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(busy);
    expect(api.calls(UNDO)).toHaveLength(1);

    answer(noContent());
    expect((await screen.findByRole('status')).textContent).toContain('Your email address is back.');
    expect(api.calls(UNDO)).toHaveLength(1);
  });

  it('a used or expired link says so, with no button', async () => {
    routeFetch({ [UNDO]: [jsonResponse(400, { error: 'This link is not valid', message: 'x', code: 'TOKEN_INVALID' })] });
    renderUndo('?token=undo-old');
    press();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This link has expired or was already used.');
    expect(alert.textContent).toContain('works once, for 7 days');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
  });

  it('an address another account has confirmed since says so, with no button', async () => {
    routeFetch({ [UNDO]: [jsonResponse(409, { error: 'Email taken', message: 'x', code: 'EMAIL_TAKEN' })] });
    renderUndo('?token=undo-taken');
    press();
    expect((await screen.findByRole('alert')).textContent).toContain('Another account has confirmed this email address since.');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
  });

  it('another failure shows the server’s message and keeps the button, to try again', async () => {
    const api = routeFetch({ [UNDO]: [jsonResponse(429, { error: 'Too many attempts', message: 'x', code: 'RATE_LIMITED' }), noContent()] });
    renderUndo('?token=undo-4');
    press();
    expect((await screen.findByRole('alert')).textContent).toBe('Too many attempts');

    press();
    expect((await screen.findByRole('status')).textContent).toContain('Your email address is back.');
    expect(api.calls(UNDO)).toHaveLength(2);
  });

  it('a failure without the server’s text says so in its own words', async () => {
    routeFetch({ [UNDO]: [new TypeError('Failed to fetch')] });
    renderUndo('?token=undo-5');
    press();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not undo the change. Please try again.');
    expect(screen.getByRole('button', { name: BUTTON })).toBeTruthy();
  });

  it('a link without a token says it is incomplete and offers no button', () => {
    const api = routeFetch({});
    renderUndo('');
    expect(screen.getByRole('alert').textContent).toContain('This link is incomplete.');
    expect(screen.queryByRole('button', { name: BUTTON })).toBeNull();
    expect(api.fn).not.toHaveBeenCalled();
  });
});
