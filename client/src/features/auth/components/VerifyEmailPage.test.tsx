import { StrictMode } from 'react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, resetAppState, routeFetch, sampleUser } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { VerifyEmailPage } from './VerifyEmailPage';

const noContent = () => new Response(null, { status: 204 });

// StrictMode as in main.tsx: React mounts the page, unmounts it and mounts it again, effects included.
function renderVerify(search: string) {
  return render(
    <StrictMode>
      <MemoryRouter initialEntries={[`/verify-email${search}`]}>
        <Routes>
          <Route path="/verify-email" element={<VerifyEmailPage />} />
        </Routes>
      </MemoryRouter>
    </StrictMode>,
  );
}

// Each test its own token: a confirmed token is remembered for the page load (as in the browser).
describe('VerifyEmailPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('sends the token once on load, even mounted twice, and says the address is confirmed', async () => {
    const api = routeFetch({ 'POST /api/email/verify': [noContent(), jsonResponse(400, { error: 'used', message: 'used', code: 'TOKEN_INVALID' })] });
    renderVerify('?token=v-once');

    expect((await screen.findByText('Your email address is confirmed.')).closest('[role="status"]')).toBeTruthy();
    expect(api.calls('POST /api/email/verify')).toHaveLength(1);
    expect(api.body('POST /api/email/verify')).toEqual({ token: 'v-once' });
    // Opened again in this page load (a remount): the same answer, no second call.
    cleanup();
    renderVerify('?token=v-once');
    expect(await screen.findByText('Your email address is confirmed.')).toBeTruthy();
    expect(api.calls('POST /api/email/verify')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers a signed-in bidder their Account page', async () => {
    useSession.getState().setUserSession({ token: 'u-tok', user: sampleUser });
    routeFetch({ 'POST /api/email/verify': [noContent()] });
    renderVerify('?token=v-user');
    expect((await screen.findByRole('link', { name: 'Go to your account' })).getAttribute('href')).toBe('/user/account');
  });

  it('a used or expired link says so', async () => {
    routeFetch({ 'POST /api/email/verify': [jsonResponse(400, { error: 'This link is not valid', message: 'x', code: 'TOKEN_INVALID' })] });
    renderVerify('?token=v-used');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This link has expired or was already used.');
    expect(alert.textContent).toContain('works once, for 24 hours');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('an address another account confirmed first says so', async () => {
    routeFetch({ 'POST /api/email/verify': [jsonResponse(409, { error: 'Email taken', message: 'x', code: 'EMAIL_TAKEN' })] });
    renderVerify('?token=v-taken');
    expect((await screen.findByRole('alert')).textContent).toContain('Another account has already confirmed this email address.');
  });

  it('a failure to reach the server can be tried again', async () => {
    const api = routeFetch({ 'POST /api/email/verify': [new TypeError('Failed to fetch'), noContent()] });
    renderVerify('?token=v-retry');
    await screen.findByRole('alert');
    expect(api.calls('POST /api/email/verify')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Your email address is confirmed.')).toBeTruthy();
    await waitFor(() => expect(api.calls('POST /api/email/verify')).toHaveLength(2));
  });

  it('a link without a token sends nothing', () => {
    const api = routeFetch({});
    renderVerify('');
    expect(screen.getByRole('alert').textContent).toContain('This link is incomplete.');
    expect(api.fn).not.toHaveBeenCalled();
  });
});
