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
 * - one client address holds at most MAX_CONNECTIONS_PER_IP connections, websockets included; the
 *   next one is answered 503 UNAVAILABLE on the raw socket and closed, before any request of it
 *   reaches the HTTP server. Loopback is not capped unless MAX_CONNECTIONS_PER_IP_LOOPBACK says so
 *   (a load test, or a proxy on the same machine, all come from 127.0.0.1);
 * - the process holds at most MAX_CONNECTIONS (Node drops the rest at accept), below the open-file
 *   limit so the database, its WAL and the logs always have descriptors.
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
/** What a connection refused for its address is told to wait, in seconds (as docs/nginx.conf's 503s). */
const REFUSED_RETRY_AFTER_S = 5;
/** How long a refused connection waits for its client to close after the answer before it is cut. */
const REFUSED_LINGER_MS = 2000;
/** Refused connections left to close by their clients at once; past this, each is cut right after its answer. */
const MAX_LINGERING = 256;

type Limits = Pick<Config, 'requestTimeoutS' | 'minBodyRateKbS' | 'keepAliveTimeoutS' | 'maxConnectionsPerIp' | 'capLoopback' | 'maxConnections' | 'trustProxy' | 'mediaMaxMb'>;

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

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether an address is this machine's own: 127.0.0.0/8 or ::1, IPv4 mapped into IPv6 included. */
export function isLoopback(address: string): boolean {
  return LOOPBACK.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
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
 * The answer to a connection over its address's cap, written on the raw socket (no request has been
 * read), then the connection is closed. The client's request, if it sends one, is read and dropped
 * until the client closes (at most REFUSED_LINGER_MS): closing on unread data would reset the
 * connection, and a client that gets a reset may lose the answer before it reads it.
 */
function refuse(socket: Socket, cap: number, lingering: Set<Socket>): void {
  const message = `Too many connections from your address (at most ${cap} at once): close some and try again`;
  const body = JSON.stringify({ error: message, message, code: 'UNAVAILABLE' } satisfies ApiErrorBody);
  socket.on('error', () => { /* a reset from the client is its close */ });
  socket.end(`HTTP/1.1 503 ${STATUS_CODES[503]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
    + `Retry-After: ${REFUSED_RETRY_AFTER_S}\r\nConnection: close\r\n\r\n${body}`);
  if (lingering.size >= MAX_LINGERING) {
    socket.destroySoon();
    return;
  }
  lingering.add(socket);
  socket.resume();
  const cut = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
  cut.unref();
  socket.once('end', () => socket.destroy());
  socket.once('close', () => {
    clearTimeout(cut);
    lingering.delete(socket);
  });
}

/**
 * Counts each client address's connections and answers one over MAX_CONNECTIONS_PER_IP with a 503 at
 * once. Loopback addresses are not counted unless MAX_CONNECTIONS_PER_IP_LOOPBACK is on. Behind a proxy
 * (TRUST_PROXY) every connection comes from the proxy, which enforces the cap per client
 * (docs/nginx.conf's `limit_conn`): none is applied here then. Returns what closes the refused
 * connections still open.
 */
function capPerAddress(server: Server, limits: Limits, log: FastifyBaseLogger): () => void {
  const cap = limits.maxConnectionsPerIp;
  if (cap === 0 || limits.trustProxy) return () => undefined;
  const open = new Map<string, number>();
  const lingering = new Set<Socket>();
  const refused = refusalLog(log, 'connection refused (503): this address holds MAX_CONNECTIONS_PER_IP connections');
  // Node's HTTP server starts reading a connection in its own 'connection' listener: a refused one must
  // never reach it (its request would reach the routes), so those listeners only see admitted ones.
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  for (const handler of handlers) server.removeListener('connection', handler);
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    const admit = () => { for (const handler of handlers) handler.call(server, socket); };
    if (address === undefined || (!limits.capLoopback && isLoopback(address))) return admit();
    const key = addressKey(address);
    const count = open.get(key) ?? 0;
    if (count >= cap) {
      refuse(socket, cap, lingering);
      refused({ address: key, cap });
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
    admit();
  });
  return () => { for (const socket of lingering) socket.destroy(); };
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
  const closeRefused = capPerAddress(server, limits, log);
  const stopWatching = watchBodies(server, limits);
  return () => {
    stopWatching();
    closeRefused();
  };
}
