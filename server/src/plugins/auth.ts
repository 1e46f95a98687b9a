import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, onRequestHookHandler } from 'fastify';
import { authenticate } from '../auth/authenticate.js';
import type { TokenService } from '../auth/tokens.js';
import type { Reads } from '../db/index.js';
import type { Caller } from '../domain/accounts.js';
import { AppError } from '../errors.js';

/** Who may call a route: a bidder, an admin, the platform owner (the first admin) or any signed-in account. */
export type Access = 'user' | 'admin' | 'owner' | 'any';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

function bearer(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? null;
}

const ROLE_ERROR: Record<Access, string> = {
  user: 'This action is for bidder accounts',
  admin: 'This action is for admin accounts',
  owner: 'Only the platform owner may do this',
  any: '',
};

/**
 * An `onRequest` hook for public reads that a token may personalise (docs/catalogue.md): a valid token
 * names the caller; a missing or invalid one leaves the caller null, never a refusal.
 */
export function createOptionalCaller(tokens: TokenService, reads: Pick<Reads, 'session'>): onRequestAsyncHookHandler {
  return async (req) => {
    const token = bearer(req);
    if (token !== null) req.caller = await authenticate(tokens, reads, token);
  };
}

/**
 * `onRequest` guards: they run before the body is read, so an anonymous caller gets 401 without the
 * server parsing what it sent. 401 only for a missing, invalid, expired or revoked token; 403 for a
 * valid token of the wrong role.
 */
export function createGuards(app: FastifyInstance, tokens: TokenService, reads: Pick<Reads, 'session'>): Record<Access, onRequestHookHandler> {
  app.decorateRequest('caller', null);
  const guard = (access: Access): onRequestHookHandler => async (req) => {
    const caller = await authenticate(tokens, reads, bearer(req));
    if (!caller) throw new AppError('UNAUTHENTICATED', 'Please sign in: your session is missing, expired or no longer valid');
    const allowed = access === 'any'
      || (access === 'user' && caller.role === 'user')
      || (access === 'admin' && caller.role === 'admin')
      || (access === 'owner' && caller.role === 'admin' && caller.isOwner);
    if (!allowed) throw new AppError('FORBIDDEN', ROLE_ERROR[access]);
    req.caller = caller;
  };
  return { user: guard('user'), admin: guard('admin'), owner: guard('owner'), any: guard('any') };
}
