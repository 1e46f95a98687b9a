/**
 * Helmet's security headers, computed once. They are the same for every response (no nonces, no
 * per-request directives), so helmet runs once at start against a recording response and one
 * `onRequest` hook copies the result onto each reply. (@fastify/helmet rebuilt helmet's whole
 * middleware, CSP parsing included, on every request: ~7 % of a cheap authenticated read.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet sets with these options, lower-cased. */
export function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  const outcome: { error: Error | null } = { error: null };
  // Helmet's middleware is synchronous: `next` has run when the call returns.
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) outcome.error = err instanceof Error ? err : new Error('helmet refused its options');
  });
  if (outcome.error) throw outcome.error;
  return Object.freeze(headers);
}

export function securityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
