import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import Fastify from 'fastify';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { X_ERROR, X_MISSING } from '@auction/shared';
import type { Config } from './config.js';
import type { App, AppContext } from './context.js';
import { openStore } from './db/index.js';
import { loadJwtSecret } from './auth/secret.js';
import { createTokenService } from './auth/tokens.js';
import { createGuards } from './plugins/auth.js';
import { AppError } from './errors.js';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.js';
import { CLIENT_DIST, fromRepoRoot } from './paths.js';
import { systemRoutes } from './routes/system.js';
import { accountRoutes } from './routes/accounts.js';
import { adminRoutes } from './routes/admin.js';
import { auctionRoutes } from './routes/auctions.js';
import { biddingRoutes } from './routes/bidding.js';
import { catalogueRoutes } from './routes/catalogue.js';
import { walletRoutes } from './routes/wallet.js';
import { userAdminRoutes } from './routes/users.js';
import { Commands } from './domain/commands.js';
import { EventBus } from './domain/events.js';
import { LiveHub } from './live/hub.js';
import { AuctionScheduler } from './live/scheduler.js';
import { attachSocketIo } from './live/socketio.js';
import { wsFeed } from './live/ws.js';
import { LocalRelay, RedisRelay, type Relay } from './live/relay.js';
import { localTally, RedisTally, type WatcherTally } from './live/watchers.js';
import type { Election } from './db/index.js';

/**
 * What keeps the processes of one installation together on a shared Redis and apart from others
 * (tests, other installations): a digest of where their data lives. Every process of a cluster has
 * the same DATABASE_URL.
 */
function redisNamespace(databaseUrl: string): string {
  return createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
}

export const BODY_LIMIT = 64 * 1024;

/**
 * The path (`a.b.0`) of the first string holding a NUL character, keys included; null when none.
 * Iterative: a 64 KiB body may nest thousands of levels deep.
 */
function findNul(root: unknown): string | null {
  // Each node keeps its parent and key; the path is spelled out only for the one that is found.
  interface Node { value: unknown; key: string; parent: Node | null }
  const pathOf = (n: Node | null): string => {
    const keys: string[] = [];
    for (let at = n; at && at.parent; at = at.parent) keys.push(at.key);
    return keys.reverse().join('.') || 'body';
  };
  const stack: Node[] = [{ value: root, key: '', parent: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.value === 'string') {
      if (node.value.includes('\u0000')) return pathOf(node);
    } else if (typeof node.value === 'object' && node.value !== null) {
      for (const [key, value] of Object.entries(node.value)) {
        if (key.includes('\u0000')) return pathOf(node);
        stack.push({ value, key, parent: node });
      }
    }
  }
  return null;
}

export interface BuildOptions {
  /** The clock; tests pass their own. */
  now?: () => number;
}

/** The whole server, ready to `listen` or to `inject` into; nothing listens yet (STYLE 11). */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', '*.password', '*.new_password', '*.token'], censor: '[redacted]' },
      // Buffered, asynchronous writes: two request lines per request at `info` never block the bid path
      // on stdout. pino flushes the buffer when the process exits.
      stream: pino.destination({ dest: 1, sync: false, minLength: 4096 }),
    },
    bodyLimit: BODY_LIMIT,
    // DESIGN §3: no coercion ("1000" is not a number); `x-error` carries a field's human message.
    ajv: { customOptions: { coerceTypes: false, allErrors: false, verbose: true, keywords: [X_ERROR, X_MISSING] } },
    forceCloseConnections: 'idle',
    // Requests that arrive while closing get our own 503 in the DESIGN §3 shape (the onRequest hook below).
    return503OnClosing: false,
    // Behind a reverse proxy the client's address is in X-Forwarded-For (rate limits are per IP).
    trustProxy: config.trustProxy,
    // A URL refused before routing still gets the error shape and the security headers.
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const store = await openStore(config.databaseUrl, { pgPool: config.pgPool });
  // Several processes share live events, watcher counts and rate limits over Redis (DESIGN §10).
  let relay: Relay = new LocalRelay();
  let tally: WatcherTally = localTally;
  let redisRelay: RedisRelay | null = null;
  if (config.redisUrl) {
    const namespace = redisNamespace(config.databaseUrl);
    const onRedisError = (err: unknown) => app.log.error({ err }, 'redis');
    try {
      redisRelay = await RedisRelay.open({ url: config.redisUrl, namespace, onError: onRedisError });
      tally = await RedisTally.open(redisRelay.commands, redisRelay.node, namespace, onRedisError);
    } catch (err) {
      await redisRelay?.close();
      await store.close();
      throw new Error(`Redis at ${config.redisUrl} cannot be reached: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    relay = redisRelay;
  }
  // Without JWT_SECRET the key is kept beside the SQLite file, or in ./data for PostgreSQL.
  const keyBeside = store.file ?? (store.kind === 'postgres' ? path.join(fromRepoRoot('data'), 'postgres') : null);
  const tokens = await createTokenService(loadJwtSecret(config.jwtSecret, keyBeside), config.tokenTtl);

  // JSON only: a text/plain body is 415, not a string handed to a route.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (DELETE, settle, or a client that always sends the header) reads as {}.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, {});
    return parseJson(req, body as string, done);
  });

  // External plugins first (STYLE 1).
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        // swagger-ui's page needs inline styles and its own scripts; the app itself needs nothing more.
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        // Plain-HTTP installs (localhost, a LAN address) must not have their assets forced to https.
        'upgrade-insecure-requests': null,
      },
    },
  });
  if (config.corsOrigin) {
    await app.register(cors, {
      origin: config.corsOrigin,
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type'],
    });
  }
  if (config.rateLimit) {
    await app.register(rateLimit, {
      global: false,
      // With several processes the counters live in Redis, so a limit holds over the whole cluster;
      // should Redis fail, requests go on unlimited rather than fail.
      ...(redisRelay ? { redis: redisRelay.commands, nameSpace: `auction-rl:${redisNamespace(config.databaseUrl)}:`, skipOnError: true } : {}),
      errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, code: 'RATE_LIMITED', message: `Too many attempts; try again in ${ctx.after}` }),
    });
  }
  await app.register(swagger, {
    openapi: {
      info: { title: 'Live auction platform API', version: '1.0.0', description: 'Wallet-based live bidding. Money is rupees with at most 2 decimals; errors are `{ error, message, code }`.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // swagger-ui sets a few inline styles as it renders.
    transformStaticCSP: (header) => header.replace("style-src 'self' https:", "style-src 'self' https: 'unsafe-inline'"),
  });
  if (fs.existsSync(CLIENT_DIST)) {
    await app.register(fastifyStatic, {
      root: CLIENT_DIST,
      wildcard: false,
      cacheControl: false,
      setHeaders: (res, file) => {
        // Vite fingerprints everything under assets/: cache it for good; never cache the page itself.
        res.header('cache-control', file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // @fastify/websocket routes every upgrade through Fastify, which would 404 socket.io's: hand those
  // to socket.io's own upgrade listener untouched (STACK.md).
  app.addHook('onRequest', (req, reply, done) => {
    if (req.ws && req.url.startsWith('/socket.io/')) {
      void reply.hijack();
      return;
    }
    done();
  });

  // A request without a body reads as {}: optional fields stay optional, required ones are named.
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined && req.method !== 'GET' && req.method !== 'HEAD') req.body = {};
    // No text the platform keeps may hold a NUL character (PostgreSQL cannot store one, and no name,
    // id or description needs one): refused as a validation error naming the field, on every store.
    const nul = findNul({ ...(req.params as object), ...(req.query as object) }) ?? findNul(req.body);
    if (nul !== null) throw new AppError('VALIDATION', `${nul} must not contain NUL characters`, nul);
  });

  // Then the application's own pieces: errors, auth, the event bus and the live channel, then routes.
  registerErrorHandling(app);
  const now = options.now ?? Date.now;
  const events = new EventBus();
  // The one place commands run: a transaction each (group-committed on SQLite), events after commit.
  const commands = new Commands(store, events);
  const reads = store.reads;
  const logError = (err: unknown) => app.log.error({ err }, 'live channel');
  // Committed events → hub → socket.io and the plain WebSocket feed.
  const live = new LiveHub({ reads, now, frameMs: config.liveFrameMs, onError: logError, relay, tally });
  events.subscribe(live.publish);
  attachSocketIo({ server: app.server, hub: live, tokens, reads, now, onError: logError, ...(config.corsOrigin ? { corsOrigin: config.corsOrigin } : {}) });
  const scheduler = new AuctionScheduler({ reads, commands, events, now, autoSettle: config.autoSettle, log: app.log });
  // Another process's catalogue change may move an ending this process's clock keeps.
  live.onForeignCatalogue(() => scheduler.changed());
  // A relayed change can be missed (Redis briefly away): the clock's process re-reads now and then too.
  if (redisRelay) setInterval(() => scheduler.changed(), 30_000).unref();
  // One process of those sharing the store keeps the clock (a PostgreSQL advisory lock; SQLite: this one).
  let election: Election | null = null;
  app.addHook('onReady', async () => {
    election = await store.elect('scheduler', async (leading) => {
      if (leading) {
        app.log.info('this process keeps the auction clock (endings, notices, settlement)');
        await scheduler.start();
      } else {
        app.log.warn('this process no longer keeps the auction clock');
        await scheduler.stop();
      }
    }, (err) => app.log.warn({ err }, 'scheduler election: could not reach the database'));
  });
  // Stop the clock, send what is pending and close every socket before the server stops; after the
  // last request has finished, publish what it committed and leave Redis.
  let closing = false;
  const lifecycle = { draining: false };
  app.addHook('preClose', async () => {
    closing = true;
    lifecycle.draining = true;
    await scheduler.stop();
    await election?.stop();
    live.closeSockets();
  });
  app.addHook('onClose', async () => {
    await live.close();
    await store.close();
  });
  // A request that reaches a closing server (on a kept-alive connection) is refused whole, before
  // anything runs, and told to come back; the connection is closed after the answer.
  // While draining (before closing) requests are served, each on a connection closed after its
  // answer: a balancer's kept-alive connections are gone before the server stops accepting.
  app.addHook('onRequest', async (_req, reply) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    if (!closing) return;
    reply.header('connection', 'close').header('retry-after', '1');
    throw new AppError('UNAVAILABLE', 'The server is restarting; please retry in a moment');
  });

  const ctx: AppContext = {
    config,
    store,
    reads,
    commands,
    tokens,
    guard: createGuards(app, tokens, reads),
    authRateLimit: config.rateLimit ? { rateLimit: { max: 20, timeWindow: '1 minute' } } : {},
    events,
    live,
    scheduler,
    now,
    lifecycle,
  };
  app.decorate('ctx', ctx);
  await app.register(async (api) => {
    systemRoutes(api, ctx);
    accountRoutes(api, ctx);
    catalogueRoutes(api, ctx);
    auctionRoutes(api, ctx);
    biddingRoutes(api, ctx);
    walletRoutes(api, ctx);
    adminRoutes(api, ctx);
    userAdminRoutes(api, ctx);
    wsFeed(api, ctx, live);
  }, { prefix: '/api' });

  return app;
}
