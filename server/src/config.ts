import { isValidTimeZone } from '@auction/shared';

/** Every setting (README.md, Configuration), read once from the environment and validated at start. */
/** The accounts `npm run demo` offers visitors; the sign-in pages show them (README.md, Demo). */
export interface DemoAccounts {
  admin: string;
  bidders: string[];
  password: string;
}

export interface Config {
  /** Set only by `npm run demo` for the server it starts (never from the environment): the demo's sign-in hint. */
  demo?: DemoAccounts | null;
  port: number;
  host: string;
  databaseUrl: string;
  jwtSecret: string | undefined;
  tokenTtl: string;
  adminSignup: 'open' | 'closed';
  autoSettle: boolean;
  corsOrigin: string | undefined;
  timeZone: string;
  logLevel: string;
  /** `json` (pino's lines, buffered) or `pretty` (one readable line each, for `npm run dev`). */
  logFormat: 'json' | 'pretty';
  rateLimit: boolean;
  liveFrameMs: number;
  /** Behind a reverse proxy: take the client's IP from X-Forwarded-For (rate limits are per IP). */
  trustProxy: boolean;
  /** PostgreSQL connections per process (DATABASE_URL=postgres://…). */
  pgPool: number;
  /**
   * PostgreSQL: the longest a read outside a transaction (every public read) may run, in ms, before the
   * database cancels it and the client gets 503 UNAVAILABLE; 0: no limit. Transactions are not bounded.
   */
  pgStatementTimeoutMs: number;
  /** Several processes: live events, watcher counts and rate limits shared over Redis (docs/deploy.md). */
  redisUrl: string | undefined;
  /**
   * On SIGTERM, how long to keep serving while /api/health answers 503, so a load balancer stops
   * sending new requests before the server stops accepting them (rolling restarts).
   */
  drainMs: number;
  /** Soft close for new auctions whose admin names none (docs/bidding.md#soft-close): window and cap, in seconds. */
  softCloseS: number;
  maxExtensionS: number;
  /** GST on the buyer's premium, in percent, and its SAC on invoices (docs/money.md#all-in-prices). */
  premiumGstPct: number;
  premiumSac: string;
  /** The operator's commission on the hammer price, in percent (docs/money.md#all-in-prices). */
  platformCommissionPct: number;
  /** The largest photo upload accepted, in MiB (docs/photos.md); 413 PAYLOAD_TOO_LARGE past it. */
  mediaMaxMb: number;
  /**
   * Photo renditions decoded at once by this process (docs/photos.md#the-media-queue): each takes a core
   * while it runs, so on a small machine one leaves the event loop its own.
   */
  mediaConcurrency: number;
  /** Uploads admitted beyond those running (being received or waiting for a turn); past them, 503 UNAVAILABLE. */
  mediaQueue: number;
  /**
   * Slow clients (docs/deploy.md#slow-clients-and-connection-limits): a request's headers must arrive
   * within this many seconds, and so must its body, unless it keeps arriving at `minBodyRateKbS`.
   */
  requestTimeoutS: number;
  /** KiB a second that earn a body a second more than `requestTimeoutS` (a photo over a slow line). */
  minBodyRateKbS: number;
  /** An idle kept-alive connection is closed after this many seconds. */
  keepAliveTimeoutS: number;
  /** Connections one client address may hold at once, websockets included (0: no cap; not applied with TRUST_PROXY). */
  maxConnectionsPerIp: number;
  /** Whether that cap also applies to loopback addresses (127.0.0.0/8, ::1); off: this machine's own connections are not capped. */
  capLoopback: boolean;
  /** Connections the process holds at once; null: the open-file limit less 256 (connections.ts). */
  maxConnections: number | null;
  /** log2 of scrypt's N for new password hashes (14: N = 16384, ~50 ms of CPU a hash). */
  passwordHashCost: number;
  /** Where people reach the site (http://localhost:3000): the start of every link in a mail. */
  publicUrl: string;
  /**
   * Mail (docs/email.md): SMTP when set (`smtp://user:pass@host:587`, STARTTLS when offered;
   * `smtps://` for TLS from the start); otherwise each mail is written as a file under `data/outbox/`.
   */
  smtpUrl: string | undefined;
  /** The From of every mail (`Auction <auction@example.com>`). */
  mailFrom: string;
  /**
   * `GET /metrics` answers a caller on this machine (not through a proxy), or one that sends
   * `Authorization: Bearer <this>`; unset: only the former.
   */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {}

const TTL = /^\d+\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks)$/i;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function redisUrl(raw: string | undefined): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (!/^rediss?:\/\/[^\s]+$/i.test(v)) throw new ConfigError(`REDIS_URL must look like redis://host:6379 (got "${v}")`);
  return v;
}

/** PREMIUM_SAC: the services accounting code invoices give the premium (six digits). */
function sac(raw: string | undefined): string {
  const v = raw?.trim();
  if (!v) return '996111';
  if (!/^\d{6}$/.test(v)) throw new ConfigError(`PREMIUM_SAC must be a services accounting code of 6 digits, e.g. 996111 (got "${v}")`);
  return v;
}

function smtpUrl(raw: string | undefined): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`SMTP_URL must look like smtp://user:password@host:587 (got "${v.replace(/:[^:@/]*@/, ':…@')}")`);
  }
  if (!['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError(`SMTP_URL must look like smtp://user:password@host:587 (got "${v.replace(/:[^:@/]*@/, ':…@')}")`);
  }
  return v;
}

function publicUrl(raw: string | undefined, port: number): string {
  const v = raw?.trim();
  if (!v) return `http://localhost:${port || 3000}`;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be the site's address such as https://auctions.example.com (got "${v}")`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    throw new ConfigError(`PUBLIC_URL must be the site's address such as https://auctions.example.com (got "${v}")`);
  }
  return url.toString().replace(/\/+$/, '');
}

/** A From: a bare address, or `Name <address>`. */
const MAIL_FROM = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const str = (name: string, fallback: string) => {
    const v = env[name]?.trim();
    return v ? v : fallback;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const v = str(name, fallback).toLowerCase() as T;
    if (!allowed.includes(v)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${v}")`);
    return v;
  };
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = str(name, String(fallback));
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min || v > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    return v;
  };
  const bool = (name: string, fallback: boolean) =>
    ['true', 'on', '1', 'yes'].includes(oneOf(name, fallback ? 'true' : 'false', ['true', 'false', 'on', 'off', '1', '0', 'yes', 'no']));

  const tokenTtl = str('TOKEN_TTL', '12h');
  if (!TTL.test(tokenTtl)) throw new ConfigError(`TOKEN_TTL must look like 30m, 12h or 7d (got "${tokenTtl}")`);
  const timeZone = str('TIMEZONE', 'Asia/Kolkata');
  if (!isValidTimeZone(timeZone)) throw new ConfigError(`TIMEZONE must be an IANA time zone such as Asia/Kolkata (got "${timeZone}")`);
  const jwtSecret = env.JWT_SECRET?.trim() || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');

  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  const port = int('PORT', 3000, 0, 65535);
  const mailFrom = str('MAIL_FROM', 'Live Auctions <no-reply@localhost>');
  if (!MAIL_FROM.test(mailFrom)) throw new ConfigError(`MAIL_FROM must be an address, or a name and an address such as Auctions <auctions@example.com> (got "${mailFrom}")`);

  return {
    port,
    host: str('HOST', '0.0.0.0'),
    databaseUrl: str('DATABASE_URL', './data/auction.db'),
    jwtSecret,
    tokenTtl,
    adminSignup: oneOf('ADMIN_SIGNUP', 'open', ['open', 'closed'] as const),
    autoSettle: bool('AUTO_SETTLE', true),
    corsOrigin: env.CORS_ORIGIN?.trim() || undefined,
    timeZone,
    logLevel: oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    logFormat: oneOf('LOG_FORMAT', 'json', ['json', 'pretty'] as const),
    rateLimit: bool('RATE_LIMIT', true),
    liveFrameMs: int('LIVE_FRAME_MS', 30, 0, 60_000),
    trustProxy: bool('TRUST_PROXY', false),
    pgPool: int('PG_POOL', 10, 1, 1000),
    pgStatementTimeoutMs: int('PG_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000),
    redisUrl: redisUrl(env.REDIS_URL),
    drainMs: int('DRAIN_MS', 0, 0, 600_000),
    softCloseS: int('SOFT_CLOSE_S', 120, 0, 3600),
    maxExtensionS: int('MAX_EXTENSION_S', 3600, 0, 86_400),
    premiumGstPct: int('PREMIUM_GST_PCT', 18, 0, 28),
    premiumSac: sac(env.PREMIUM_SAC),
    platformCommissionPct: int('PLATFORM_COMMISSION_PCT', 0, 0, 50),
    mediaMaxMb: int('MEDIA_MAX_MB', 8, 1, 64),
    mediaConcurrency: int('MEDIA_CONCURRENCY', 1, 1, 64),
    mediaQueue: int('MEDIA_QUEUE', 4, 0, 1000),
    requestTimeoutS: int('REQUEST_TIMEOUT_S', 20, 1, 300),
    minBodyRateKbS: int('MIN_BODY_RATE_KB_S', 16, 1, 1_048_576),
    keepAliveTimeoutS: int('KEEP_ALIVE_TIMEOUT_S', 10, 1, 3600),
    maxConnectionsPerIp: int('MAX_CONNECTIONS_PER_IP', 4096, 0, 1_000_000),
    capLoopback: bool('MAX_CONNECTIONS_PER_IP_LOOPBACK', false),
    passwordHashCost: int('PASSWORD_HASH_COST', 14, 10, 20),
    maxConnections: env.MAX_CONNECTIONS?.trim() ? int('MAX_CONNECTIONS', 0, 1, 10_000_000) : null,
    publicUrl: publicUrl(env.PUBLIC_URL, port),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom,
    metricsToken,
  };
}
