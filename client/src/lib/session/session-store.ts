import { create } from 'zustand';
import type { AdminPublic, AdminSession, UserPublic, UserSession } from '@auction/shared';
import {
  SESSION_KEYS,
  clearStoredSession,
  onSessionCleared,
  readJson,
  readToken,
  writeItem,
} from '../session-storage';
import { resetServerData } from '../live-query';

export interface SessionState {
  /** False until the stored session has been read; guards show a spinner meanwhile. */
  ready: boolean;
  user: UserPublic | null;
  userToken: string | null;
  admin: AdminPublic | null;
  adminToken: string | null;
  /**
   * True from a logout or 401 until the visitor reaches `/`. The router commits navigations in a
   * transition, after the session store's synchronous update, so for one render the guards see the
   * old page without a session; this flag makes them send the visitor home instead of to a login page.
   */
  sessionEnded: boolean;
  acknowledgeEnd: () => void;
  hydrate: () => void;
  setUserSession: (session: UserSession) => void;
  setAdminSession: (session: AdminSession) => void;
  /** Logout clears token, admin_token, user and admin. */
  logout: () => void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

// Stored JSON is untrusted (older versions, manual edits): keep only well-formed profiles.
function parseUser(value: unknown): UserPublic | null {
  if (!isRecord(value) || typeof value.username !== 'string') return null;
  return {
    id: typeof value.id === 'number' ? value.id : 0,
    username: value.username,
    name: typeof value.name === 'string' ? value.name : '',
    mobile_number: typeof value.mobile_number === 'string' ? value.mobile_number : '',
  };
}

function parseAdmin(value: unknown): AdminPublic | null {
  const base = parseUser(value);
  if (!base || !isRecord(value)) return null;
  return { ...base, is_owner: value.is_owner === true };
}

const signedOut = { user: null, userToken: null, admin: null, adminToken: null } as const;

export const useSession = create<SessionState>()((set, get) => ({
  ready: false,
  sessionEnded: false,
  ...signedOut,

  acknowledgeEnd: () => {
    if (get().sessionEnded) set({ sessionEnded: false });
  },

  hydrate: () => {
    const userToken = readToken('user');
    const adminToken = readToken('admin');
    const user = userToken ? parseUser(readJson(SESSION_KEYS.user)) : null;
    const admin = adminToken ? parseAdmin(readJson(SESSION_KEYS.admin)) : null;
    set({
      ready: true,
      sessionEnded: false,
      user,
      userToken: user ? userToken : null,
      admin,
      adminToken: admin ? adminToken : null,
    });
  },

  setUserSession: ({ token, user }) => {
    writeItem(SESSION_KEYS.userToken, token);
    writeItem(SESSION_KEYS.user, JSON.stringify(user));
    set({ ready: true, sessionEnded: false, user, userToken: token });
  },

  setAdminSession: ({ token, admin }) => {
    writeItem(SESSION_KEYS.adminToken, token);
    writeItem(SESSION_KEYS.admin, JSON.stringify(admin));
    set({ ready: true, sessionEnded: false, admin, adminToken: token });
  },

  logout: () => {
    clearStoredSession();
  },
}));

// A 401 anywhere clears storage through the API client; the in-memory session follows.
onSessionCleared(() => useSession.setState({ ...signedOut, sessionEnded: true }));


// The one place server data is forgotten: when the signed-in user or admin changes (login, logout,
// a 401, another account), no cached answer of the previous one may be shown: the query cache is
// cleared (lib/live-query.ts).
useSession.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id || s.userToken !== prev.userToken || s.admin?.id !== prev.admin?.id || s.adminToken !== prev.adminToken) {
    resetServerData();
  }
});
