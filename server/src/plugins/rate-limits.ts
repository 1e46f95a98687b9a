/**
 * Per-account request limits (docs/architecture.md, "Rate limits"): what a signed-in bidder can repeat
 * cheaply, each counted per account (not per address, so a bidder behind a shared address is not
 * limited by a neighbour) over a fixed window, 429 RATE_LIMITED with Retry-After past it. All of them
 * are off with RATE_LIMIT=off, as the per-address limits of login and registration are.
 */
import type { FastifyRequest } from 'fastify';

export interface Figure {
  /** Requests allowed per window. */
  max: number;
  /** The window, in milliseconds. */
  windowMs: number;
}

/** The figures, per account. Each route has its own budget. */
export const USER_LIMITS = {
  /** POST /bid and POST /buy-now (each its own budget). */
  bid: { max: 20, windowMs: 1000 },
  /** POST /rollback-bid. */
  cancel: { max: 10, windowMs: 60_000 },
  /** POST /wallet/topup: each writes a ledger row. */
  topup: { max: 10, windowMs: 60_000 },
  /** PUT /saved/{id} and DELETE /saved/{id} (each its own budget). */
  saved: { max: 30, windowMs: 60_000 },
  /** POST /notifications/read. */
  markRead: { max: 30, windowMs: 60_000 },
  /** PUT /me/email: each mails a confirmation link (docs/email.md). Users and admins alike. */
  emailChange: { max: 5, windowMs: 15 * 60_000 },
  /** PUT /me/notification-settings and DELETE /me/email. */
  settings: { max: 30, windowMs: 60_000 },
} as const satisfies Record<string, Figure>;

export type UserLimitName = keyof typeof USER_LIMITS;

/** A route's `config` for @fastify/rate-limit. */
export interface RouteLimitConfig {
  rateLimit?: {
    max: number;
    timeWindow: number;
    hook: 'preHandler';
    keyGenerator: (req: FastifyRequest) => string;
  };
}

/**
 * The route `config` of a per-account limit: checked in `preHandler`, after the guard has named the
 * caller (and after validation: a malformed request is refused before it costs a try). Empty when
 * limits are off.
 */
export function userLimit(enabled: boolean, name: UserLimitName): RouteLimitConfig {
  if (!enabled) return {};
  const { max, windowMs } = USER_LIMITS[name];
  return {
    rateLimit: {
      max, timeWindow: windowMs, hook: 'preHandler',
      keyGenerator: (req) => (req.caller ? `${name}:${req.caller.role}:${req.caller.id}` : req.ip),
    },
  };
}
