import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetAppState, sampleAdmin, sampleUser } from '../../test/utils';
import { useSession } from './session-store';

describe('session store', () => {
  beforeEach(resetAppState);
  afterEach(resetAppState);

  it('persists the user session under token and user', () => {
    useSession.getState().setUserSession({ token: 'u-tok', user: sampleUser });
    expect(localStorage.getItem('token')).toBe('u-tok');
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toEqual(sampleUser);
    expect(localStorage.getItem('admin_token')).toBeNull();
    expect(useSession.getState().user).toEqual(sampleUser);
  });

  it('persists the admin session under admin_token and admin', () => {
    useSession.getState().setAdminSession({ token: 'a-tok', admin: sampleAdmin });
    expect(localStorage.getItem('admin_token')).toBe('a-tok');
    expect(JSON.parse(localStorage.getItem('admin') ?? 'null')).toEqual(sampleAdmin);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('starts not ready and hydrates both sessions from storage', () => {
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    localStorage.setItem('admin_token', 'a-tok');
    localStorage.setItem('admin', JSON.stringify({ ...sampleAdmin, is_owner: true }));
    expect(useSession.getState().ready).toBe(false);

    useSession.getState().hydrate();

    const s = useSession.getState();
    expect(s.ready).toBe(true);
    expect(s.user).toEqual(sampleUser);
    expect(s.userToken).toBe('u-tok');
    expect(s.admin?.is_owner).toBe(true);
    expect(s.adminToken).toBe('a-tok');
  });

  it('ignores a profile without its token and unparsable JSON', () => {
    localStorage.setItem('user', JSON.stringify(sampleUser));
    localStorage.setItem('admin_token', 'a-tok');
    localStorage.setItem('admin', '{not json');
    useSession.getState().hydrate();
    const s = useSession.getState();
    expect(s.ready).toBe(true);
    expect(s.user).toBeNull();
    expect(s.admin).toBeNull();
  });

  it('logout clears all four keys and both sessions', () => {
    useSession.getState().setUserSession({ token: 'u-tok', user: sampleUser });
    useSession.getState().setAdminSession({ token: 'a-tok', admin: sampleAdmin });
    localStorage.setItem('theme', 'dark');

    useSession.getState().logout();

    for (const key of ['token', 'admin_token', 'user', 'admin']) expect(localStorage.getItem(key)).toBeNull();
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(useSession.getState().user).toBeNull();
    expect(useSession.getState().admin).toBeNull();
    expect(useSession.getState().ready).toBe(true);
  });
});
