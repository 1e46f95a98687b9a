/**
 * The stored session lives in localStorage under four keys (token, admin_token, user, admin).
 * This module is the only place that touches them; the auth store writes through it and the API client
 * reads tokens from it, so both always agree.
 */
export const SESSION_KEYS = {
  userToken: 'token',
  adminToken: 'admin_token',
  user: 'user',
  admin: 'admin',
} as const;

export type SessionKind = 'user' | 'admin';

const ALL_KEYS = Object.values(SESSION_KEYS);

// Storage can throw (disabled cookies, private mode quotas); a broken store means "no session".
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // Quota or disabled storage: the session then lasts only for this page load.
  }
}

export function removeItem(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

/** The JSON stored under `key`, or null when missing or unparsable. */
export function readJson(key: string): unknown {
  const raw = readItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

export function tokenKey(kind: SessionKind): string {
  return kind === 'user' ? SESSION_KEYS.userToken : SESSION_KEYS.adminToken;
}

export function profileKey(kind: SessionKind): string {
  return kind === 'user' ? SESSION_KEYS.user : SESSION_KEYS.admin;
}

export function readToken(kind: SessionKind): string | null {
  const token = readItem(tokenKey(kind));
  return token ? token : null;
}

export function isSessionKey(key: string | null): boolean {
  return key === null || (ALL_KEYS as string[]).includes(key);
}

type Listener = () => void;
const clearedListeners = new Set<Listener>();

/** Called after every full clear, so in-memory state (the session store) can follow. */
export function onSessionCleared(listener: Listener): () => void {
  clearedListeners.add(listener);
  return () => clearedListeners.delete(listener);
}

/** Removes all four keys: logout and any 401. */
export function clearStoredSession(): void {
  for (const key of ALL_KEYS) removeItem(key);
  for (const listener of clearedListeners) listener();
}
