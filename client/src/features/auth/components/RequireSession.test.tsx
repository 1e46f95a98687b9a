import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocationProbe, resetAppState, sampleAdmin, sampleUser } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { RequireSession } from './RequireSession';

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route element={<RequireSession kind="user" />}>
          <Route path="/user/wallet" element={<p>user page</p>} />
        </Route>
        <Route element={<RequireSession kind="admin" />}>
          <Route path="/admin/reports" element={<p>admin page</p>} />
        </Route>
        <Route path="/user/login" element={<p>user login</p>} />
        <Route path="/admin/login" element={<p>admin login</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

describe('RequireSession', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows a spinner while the stored session loads, then the page', () => {
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    renderAt('/user/wallet');

    expect(screen.getByRole('status').textContent).toContain('Loading your session');
    expect(screen.queryByText('user page')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/user/wallet');

    act(() => useSession.getState().hydrate());

    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('user page')).toBeTruthy();
  });

  it('sends a visitor without a user session to /user/login', () => {
    useSession.getState().hydrate();
    renderAt('/user/wallet');
    expect(screen.getByTestId('location').textContent).toBe('/user/login');
    expect(screen.getByText('user login')).toBeTruthy();
  });

  it('sends a visitor without an admin session to /admin/login, even with a user session', () => {
    useSession.getState().setUserSession({ token: 'u-tok', user: sampleUser });
    renderAt('/admin/reports');
    expect(screen.getByTestId('location').textContent).toBe('/admin/login');
  });

  it('opens an admin page with an admin session', () => {
    useSession.getState().setAdminSession({ token: 'a-tok', admin: sampleAdmin });
    renderAt('/admin/reports');
    expect(screen.getByText('admin page')).toBeTruthy();
  });

  it('does not open a user page with only an admin session', () => {
    useSession.getState().setAdminSession({ token: 'a-tok', admin: sampleAdmin });
    renderAt('/user/wallet');
    expect(screen.getByTestId('location').textContent).toBe('/user/login');
  });
});
