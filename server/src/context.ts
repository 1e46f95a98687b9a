import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, onRequestAsyncHookHandler, onRequestHookHandler, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuctionListCache } from './cache/auction-list.js';
import type { CategoryListCache } from './cache/category-list.js';
import type { Config } from './config.js';
import type { Reads, Store } from './db/index.js';
import type { TokenService } from './auth/tokens.js';
import type { Access } from './plugins/auth.js';
import type { RouteLimitConfig, UserLimitName } from './plugins/rate-limits.js';
import type { Commands } from './domain/commands.js';
import type { EventBus } from './domain/events.js';
import type { LiveHub } from './live/hub.js';
import type { AuctionScheduler } from './clock/scheduler.js';
import type { Metrics } from './metrics.js';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What route modules need: configuration, storage, tokens, guards, per-route limits and the clock. */
export interface AppContext {
  config: Config;
  store: Store;
  /** Committed data: single-statement reads. */
  reads: Reads;
  /** Runs commands in transactions and publishes their events after commit (domain/commands.ts). */
  commands: Commands;
  tokens: TokenService;
  guard: Record<Access, onRequestHookHandler>;
  /** For public reads a token may personalise: sets the caller when a valid token is sent, refuses nothing. */
  optionalCaller: onRequestAsyncHookHandler;
  /** Route `config` for credential endpoints: RATE_LIMIT's per-IP limit, 20 a minute (empty when RATE_LIMIT=off). */
  authRateLimit: { rateLimit?: { max: number; timeWindow: string } };
  /** Route `config` for public reads (the catalogue and categories, docs/catalogue.md): 300 a minute per IP (empty when RATE_LIMIT=off). */
  publicReadLimit: { rateLimit?: { max: number; timeWindow: string } };
  /**
   * An `onRequest` hook for credential changes, after the role guard: 10 attempts per 15 minutes per
   * account (429 RATE_LIMITED past that), beside `authRateLimit`'s per-IP limit. Null when RATE_LIMIT=off.
   */
  credentialRateLimit: onRequestAsyncHookHandler | null;
  /** Route `config` for a per-account limit (plugins/rate-limits.ts: bids, cancels, top-ups…); empty when RATE_LIMIT=off. */
  userLimit: (name: UserLimitName) => RouteLimitConfig;
  /** Committed domain events, for the live channel and the scheduler (published by `commands` only). */
  events: EventBus;
  /** `GET /auctions` from memory, invalidated by committed changes (cache/auction-list.ts). */
  auctionList: AuctionListCache;
  /** `GET /categories` from memory, invalidated by changes that move its counts (cache/category-list.ts). */
  categoryList: CategoryListCache;
  /** The live channel's hub and the auction clock. */
  live: LiveHub;
  scheduler: AuctionScheduler;
  now: () => number;
  /** Set on SIGTERM (index.ts) while the process drains: /api/health answers 503, requests are still served. */
  lifecycle: { draining: boolean };
  /** Prometheus series (metrics.ts), served at /metrics. */
  metrics: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The application context, for the live channel, the scheduler and tests. */
    ctx: AppContext;
  }
}
