/**
 * The one check of a presented token, for HTTP requests (the guards of plugins/auth.ts) and live
 * sockets (live/sessions.ts) alike: a well-formed, correctly signed, unexpired token (tokens.ts) of an
 * active account whose token version it still carries (domain/accounts.ts, through the session cache).
 */
import type { Reads } from '../db/index.js';
import { resolveSession, type Caller } from '../domain/accounts.js';
import type { TokenClaims, TokenService } from './tokens.js';

export interface Authenticated {
  caller: Caller;
  /** The verified claims: live sockets keep the token version and the expiry. */
  claims: TokenClaims;
}

/** The caller and claims of a valid, unrevoked token of an active account; null otherwise. */
export async function authenticateToken(tokens: TokenService, reads: Pick<Reads, 'session'>, token: string | null): Promise<Authenticated | null> {
  if (!token) return null;
  const claims = await tokens.verify(token);
  if (!claims) return null;
  const caller = await resolveSession(reads, claims);
  return caller ? { caller, claims } : null;
}

/** The caller of a request with a valid, unrevoked token of an active account; null otherwise. */
export async function authenticate(tokens: TokenService, reads: Pick<Reads, 'session'>, token: string | null): Promise<Caller | null> {
  return (await authenticateToken(tokens, reads, token))?.caller ?? null;
}
