import { StrictMode } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, resetAppState, routeFetch } from '../../../test/utils';
import { UnsubscribePage } from './UnsubscribePage';

function renderPage(search: string) {
  return render(
    <StrictMode>
      <MemoryRouter initialEntries={[`/unsubscribe${search}`]}>
        <Routes>
          <Route path="/unsubscribe" element={<UnsubscribePage />} />
        </Routes>
      </MemoryRouter>
    </StrictMode>,
  );
}

describe('UnsubscribePage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('does nothing on load (mail scanners open links); the button unsubscribes and shows the server’s message', async () => {
    const api = routeFetch({ 'POST /api/unsubscribe': [jsonResponse(200, { message: 'You will no longer get outbid emails.', kind: 'outbid' })] });
    renderPage('?token=u-1');
    await Promise.resolve();
    expect(api.fn).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Stop these emails' }));
    expect((await screen.findByRole('status')).textContent).toContain('You will no longer get outbid emails.');
    expect(api.calls('POST /api/unsubscribe')).toHaveLength(1);
    expect(api.body('POST /api/unsubscribe')).toEqual({ token: 'u-1' });
    expect(screen.queryByRole('button', { name: 'Stop these emails' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Account' }).getAttribute('href')).toBe('/user/account');
  });

  it('a link that no longer works says so', async () => {
    routeFetch({ 'POST /api/unsubscribe': [jsonResponse(400, { error: 'This link is not valid', message: 'x', code: 'TOKEN_INVALID' })] });
    renderPage('?token=u-old');
    fireEvent.click(screen.getByRole('button', { name: 'Stop these emails' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This link has expired or was already used.');
  });

  it('another failure keeps the button, to try again', async () => {
    routeFetch({ 'POST /api/unsubscribe': [jsonResponse(500, {})] });
    renderPage('?token=u-2');
    fireEvent.click(screen.getByRole('button', { name: 'Stop these emails' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Could not stop these emails. Please try again.');
    expect(screen.getByRole('button', { name: 'Stop these emails' })).toBeTruthy();
  });

  it('a link without a token offers no button', () => {
    renderPage('');
    expect(screen.queryByRole('button', { name: 'Stop these emails' })).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('This link is incomplete.');
  });
});
