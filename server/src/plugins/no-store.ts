/**
 * Personal answers are never stored (docs/deploy.md#personal-answers-are-never-stored): a browser's
 * disk cache, a shared computer's, or a proxy between must not keep an account's data or a token. One
 * `onSend` hook, so it holds for every route, for the error handler's answers, and over whatever a
 * route set itself (`GET /api/auctions`' `private, no-cache`: its ETag still answers 304 to a client
 * that sends it back).
 *
 * Personal means, under /api:
 * - any request that carries an `Authorization` header, valid or not (the answer may be per caller:
 *   a public read with a token has `my_status`, `saved`, `registered`);
 * - any write (POST, PUT, PATCH, DELETE): sign-in and sign-up answers hold tokens or accounts;
 * - a `token` in the query (`/api/ws?token=…`);
 * - the personal areas, with or without a token (their 401s too): the account, wallet, bids,
 *   notifications, saved lots, the list of auctions with one's registrations, and everything admin.
 * A visitor's catalogue reads (`/api/catalogue/*`, categories, a lot, an auction's lots), the clock and
 * the health check keep what they had, and so do the photos and the client's files outside /api.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Paths personal with everything under them. */
const PERSONAL_AREAS = ['/api/me', '/api/wallet', '/api/bids', '/api/user-bids', '/api/my_auctions', '/api/notifications', '/api/saved', '/api/admin'];
/** Paths personal on their own (`/api/auctions/{id}/products` is a public read). */
const PERSONAL_PATHS = new Set(['/api/auctions']);
const TOKEN_PARAM = /[?&]token=/i;

/** Whether the answer to this request must not be stored. */
export function isPersonal(req: Pick<FastifyRequest, 'url' | 'method' | 'headers'>): boolean {
  const { url } = req;
  if (!url.startsWith('/api/')) return false;
  if (req.headers.authorization !== undefined || WRITES.has(req.method)) return true;
  const q = url.indexOf('?');
  if (q !== -1 && TOKEN_PARAM.test(url.slice(q))) return true;
  const path = q === -1 ? url : url.slice(0, q);
  return PERSONAL_PATHS.has(path) || PERSONAL_AREAS.some((area) => path === area || path.startsWith(`${area}/`));
}

/** Adds the hook; register it before the routes. */
export function noStoreOnPersonal(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    if (isPersonal(req)) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
