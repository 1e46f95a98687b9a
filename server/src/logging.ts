import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type { FastifyRequest } from 'fastify';

// The logger's pieces (app.ts builds the logger with them): the buffered stdout, token redaction and request ids.

/**
 * The logger's stdout, one per process (the demo and the tests build several apps in one): buffered,
 * asynchronous writes of 4 KiB at a time, so the two request lines per request at `info` never block
 * the bid path on stdout; yet no line waits more than a second (an idle server still shows its last
 * lines), and `flushLog()` writes at once what must not wait. pino writes the rest when the process exits.
 */
let stdoutLog: ReturnType<typeof pino.destination> | undefined;
export function bufferedStdout(): pino.DestinationStream {
  stdoutLog ??= pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 });
  return stdoutLog;
}

/** Starts writing the buffered log lines now: a lifecycle line (listening, shutting down) must not wait. */
export function flushLog(): void {
  stdoutLog?.flush();
}

/** Whether a query parameter's name, as written in a URL, reads as `token` (any case, percent-encoded or not). */
export function isTokenName(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replaceAll('+', ' '));
  } catch { /* malformed percent-encoding: compare it as written */ }
  return decoded.toLowerCase() === 'token';
}

/** A query parameter in a URL or in a message quoting one: `?name=value` or `&name=value`. */
const QUERY_PARAM = /([?&])([^=&#?\s]+)=([^&#\s]*)/g;

/**
 * The text with the value of every query parameter named `token` replaced: the plain WebSocket feed
 * takes its JWT as `/api/ws?token=…`, and no log line may hold a token. A value runs to the
 * next `&`, as the query parser reads it; another parameter's value is searched too (`?a=b?token=…`).
 */
export function redactTokens(text: string): string {
  return text.replace(QUERY_PARAM, (_param: string, sep: string, name: string, value: string) =>
    `${sep}${name}=${isTokenName(name) ? '[redacted]' : redactTokens(value)}`);
}

/** Fastify's own request serializer, with the URL's tokens redacted; everything else as Fastify logs it. */
export function serializeRequest(req: FastifyRequest) {
  const version = req.headers['accept-version'];
  return {
    method: req.method,
    url: redactTokens(req.url),
    version: Array.isArray(version) ? version.join(', ') : version,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** pino's error serializer; a message or stack that quotes a URL (Fastify's own errors do) loses its tokens. */
export function serializeError(err: Error): pino.SerializedError {
  // pino hands back anything that is not error-like unchanged (`{ err: 'text' }`), whatever its types say.
  const out: pino.SerializedError | null | undefined = pino.stdSerializers.err(err);
  if (typeof out !== 'object' || out === null) return out;
  const text = (v: unknown) => (typeof v === 'string' ? redactTokens(v) : v);
  return { ...out, message: text(out.message) as string, stack: text(out.stack) as string };
}

/** A balancer's or client's request id is kept when it is at most 64 such characters (nothing to log-inject). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Request ids: an incoming `X-Request-Id` that looks like one, else this app's random tag and a counter
 * (`3f9a0c1d52be-1k`), so ids never repeat across the processes of a cluster (Fastify's own `req-1`
 * starts again in each). Each app has its own tag: the tests build several in one process.
 */
export function requestIds(): (req: { headers: Record<string, string | string[] | undefined> }) => string {
  const tag = randomBytes(6).toString('hex');
  let seq = 0;
  return (req) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : `${tag}-${(++seq).toString(36)}`;
  };
}
