/**
 * Slow clients and connection limits (docs/deploy.md#slow-clients-and-connection-limits). Trickling
 * login bodies a byte every 2 s once held connections until the file descriptors ran out and
 * /api/health stopped answering. Now:
 *
 * - headers must arrive within REQUEST_TIMEOUT_S (Node's `headersTimeout`; a connection that sends
 *   nothing is cut the same way);
 * - so must a body, plus a second for every MIN_BODY_RATE_KB_S KiB received: a photo over a slow line
 *   keeps going, a trickle is cut (`watchBodies`; Node's own `requestTimeout` is only the ceiling, the
 *   largest body at the minimum rate);
 * - Node checks both every second (`connectionsCheckingInterval`, 30 s by default), so a slow request
 *   is closed within REQUEST_TIMEOUT_S + 1 s, with 408 REQUEST_TIMEOUT when nothing was answered yet;
 * - an idle kept-alive connection is closed after KEEP_ALIVE_TIMEOUT_S;
 * - one client address holds at most MAX_CONNECTIONS_PER_IP connections, websockets included (the
 *   next one is closed at once), and the process at most MAX_CONNECTIONS (Node drops the rest at
 *   accept), below the open-file limit so the database, its WAL and the logs always have descriptors.
 *
 * Upgraded sockets (socket.io, /api/ws) are not requests in progress: none of the timeouts reach them.
 */
import fs from 'node:fs';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerOptions } from 'node:http';
import net, { type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiErrorBody, ErrorCode } from '@auction/shared';
import type { Config } from '../config.js';

/** How often slow requests are looked for, by Node (headers) and here (bodies). */
export const CHECK_INTERVAL_MS = 1000;
/** Descriptors kept for everything but client connections when MAX_CONNECTIONS is not set. */
const FD_RESERVE = 256;
/** Without a readable open-file limit (not Linux), the process holds at most this many connections. */
const FALLBACK_MAX_CONNECTIONS = 10_000;
/** A refused connection is logged at most this often (an attack would fill the log). */
const REFUSAL_LOG_MS = 10_000;

type Limits = Pick<Config, 'requestTimeoutS' | 'minBodyRateKbS' | 'keepAliveTimeoutS' | 'maxConnectionsPerIp' | 'maxConnections' | 'trustProxy' | 'mediaMaxMb'>;

/** Fastify's options for the timeouts: Node's checks, and the ceiling of any request. */
export function serverTimeouts(limits: Limits): { keepAliveTimeout: number; requestTimeout: number; http: ServerOptions } {
  const headersMs = limits.requestTimeoutS * 1000;
  // The largest body (a photo of MEDIA_MAX_MB and its multipart wrapping) at the minimum rate.
  const largestBodyS = Math.ceil(((limits.mediaMaxMb + 1) * 1024) / limits.minBodyRateKbS);
  return {
    keepAliveTimeout: limits.keepAliveTimeoutS * 1000,
    requestTimeout: headersMs + largestBodyS * 1000,
    http: { headersTimeout: headersMs, connectionsCheckingInterval: CHECK_INTERVAL_MS },
  };
}

/** The soft open-file limit of this process (Linux), or null. */
export function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return line && line[1] !== 'unlimited' ? Number(line[1]) : null;
  } catch {
    return null;
  }
}

/** MAX_CONNECTIONS, or the open-file limit less what the rest of the process needs. */
export function maxConnectionsOf(limits: Pick<Config, 'maxConnections'>, fdLimit = openFileLimit()): number {
  if (limits.maxConnections !== null) return limits.maxConnections;
  return fdLimit === null ? FALLBACK_MAX_CONNECTIONS : Math.max(64, fdLimit - FD_RESERVE);
}

/**
 * What the per-address cap counts by: an IPv4 address (also when mapped into IPv6), or an IPv6
 * address's /64, the block one subscriber is given (one host can use all of it).
 */
export function addressKey(address: string): string {
  if (address.startsWith('::ffff:') && net.isIPv4(address.slice(7))) return address.slice(7);
  if (!net.isIPv6(address)) return address;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

const STATUS: Record<string, [number, ErrorCode, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive'],
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The request headers are too large'],
};

/**
 * Fastify's `clientErrorHandler`: what Node refuses before any route (a request that timed out, headers
 * too large, malformed HTTP) is answered in the error shape when nothing was answered yet, then the
 * connection is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = STATUS[err.code ?? ''] ?? [400, 'VALIDATION' as const, 'The request is not valid HTTP'];
  const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !answered) {
    const body = JSON.stringify({ error: message, message, code } satisfies ApiErrorBody);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

/** A request whose body has not all arrived: when it must have, and how much had when last looked. */
interface Arriving { req: IncomingMessage; deadline: number; bytesRead: number }

/**
 * Cuts bodies that arrive too slowly: REQUEST_TIMEOUT_S from the request's headers, a second more for
 * every MIN_BODY_RATE_KB_S KiB read from its connection since. Checked every second; a request is
 * looked at only while its body is incomplete.
 */
function watchBodies(server: Server, limits: Limits): () => void {
  const bytesPerMs = (limits.minBodyRateKbS * 1024) / 1000;
  const arriving = new Set<Arriving>();
  server.on('request', (req: IncomingMessage) => {
    // Without a length or chunks there is no body: the request is whole once its headers are.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return;
    arriving.add({ req, deadline: Date.now() + limits.requestTimeoutS * 1000, bytesRead: req.socket.bytesRead });
  });
  const check = setInterval(() => {
    const now = Date.now();
    for (const a of arriving) {
      const { req } = a;
      if (req.complete || req.socket.destroyed) {
        arriving.delete(a);
        continue;
      }
      const read = req.socket.bytesRead;
      a.deadline += (read - a.bytesRead) / bytesPerMs;
      a.bytesRead = read;
      if (now < a.deadline) continue;
      arriving.delete(a);
      answerClientError(Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), req.socket);
    }
  }, CHECK_INTERVAL_MS);
  check.unref();
  return () => clearInterval(check);
}

/**
 * Counts each client address's connections and closes one over MAX_CONNECTIONS_PER_IP at once. Behind
 * a proxy (TRUST_PROXY) every connection comes from the proxy, which enforces the cap per client
 * (docs/nginx.conf's `limit_conn`): none is applied here then.
 */
function capPerAddress(server: Server, limits: Limits, log: FastifyBaseLogger): void {
  const cap = limits.maxConnectionsPerIp;
  if (cap === 0 || limits.trustProxy) return;
  const open = new Map<string, number>();
  const refused = refusalLog(log, 'connection refused: this address holds MAX_CONNECTIONS_PER_IP connections');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const key = addressKey(address);
    const count = open.get(key) ?? 0;
    if (count >= cap) {
      socket.destroy();
      refused({ address: key, cap });
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** A warning for refused connections, at most every REFUSAL_LOG_MS, with how many there were since the last. */
function refusalLog(log: FastifyBaseLogger, message: string): (details: object) => void {
  let refused = 0;
  let lastLog = 0;
  return (details) => {
    refused++;
    if (Date.now() - lastLog < REFUSAL_LOG_MS) return;
    lastLog = Date.now();
    log.warn({ ...details, refused }, message);
    refused = 0;
  };
}

/** Every limit above on the app's HTTP server (its timeouts are Fastify options: `serverTimeouts`); returns the stop for onClose. */
export function guardConnections(server: Server, limits: Limits, log: FastifyBaseLogger): () => void {
  server.maxConnections = maxConnectionsOf(limits);
  const dropped = refusalLog(log, 'connection refused: the process holds MAX_CONNECTIONS connections');
  server.on('drop', () => dropped({ max: server.maxConnections }));
  capPerAddress(server, limits, log);
  return watchBodies(server, limits);
}
