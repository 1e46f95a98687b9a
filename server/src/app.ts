import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type pino from 'pino';
import Fastify, { LogController, type onRequestAsyncHookHandler } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
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
import { createGuards, createOptionalCaller } from './plugins/auth.js';
import { SessionCache } from './auth/session-cache.js';
import { AppError } from './errors.js';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.js';
import { CLIENT_DIST, fromRepoRoot } from './paths.js';
import { prettyStdout } from './log-format.js';
import { systemRoutes } from './routes/system/index.js';
import { accountRoutes } from './routes/accounts/index.js';
import { adminRoutes } from './routes/admin/dashboard/index.js';
import { auctionRoutes } from './routes/auctions/index.js';
import { biddingRoutes } from './routes/bids/index.js';
import { productImportRoutes } from './routes/admin/product-import/index.js';
import { adminProductRoutes } from './routes/admin/products/index.js';
import { catalogueRoutes } from './routes/admin/catalogue/index.js';
import { categoryRoutes } from './routes/categories/index.js';
import { browseRoutes } from './routes/catalogue/index.js';
import { imageRoutes, mediaRoutes } from './routes/images/index.js';
import { productPageRoutes } from './routes/products/index.js';
import { walletRoutes } from './routes/wallet/index.js';
import { userAdminRoutes } from './routes/admin/users/index.js';
// Saved lots and notifications (docs/notifications.md).
import { savedRoutes } from './routes/saved/index.js';
import { notificationRoutes } from './routes/notifications/index.js';
// Accounts by email: addresses, password reset, notice emails (docs/email.md).
import { emailRoutes } from './routes/email/index.js';
import { MailSender } from './mail/sender.js';
import { NoticeMails } from './mail/notice-mails.js';
import { UnsubscribeTokens } from './mail/links.js';
import { fileTransport, smtpTransport, type MailTransport } from './mail/transport.js';
import { Commands } from './domain/commands.js';
import { setPasswordHashCost } from './auth/passwords.js';
import { setResponseTimeZone } from './presenters/format.js';
import { CATEGORY_COUNT_EVENTS, CategoryListCache } from './cache/category-list.js';
import { EventBus } from './domain/events.js';
import { LiveHub } from './live/hub.js';
import { AuctionScheduler } from './clock/scheduler.js';
import { AUCTION_LIST_EVENTS, AuctionListCache } from './cache/auction-list.js';
import { securityHeaders } from './plugins/security-headers.js';
import { noStoreOnPersonal } from './plugins/no-store.js';
import { RateLimitCounters } from './plugins/rate-limit-store.js';
import { userLimit } from './plugins/rate-limits.js';
import { answerClientError, guardConnections, serverTimeouts } from './plugins/connections.js';
import { attachSocketIo } from './live/socketio.js';
import { wsFeed } from './live/ws.js';
import { LocalRelay, RedisRelay, type Relay } from './live/relay.js';
import { localTally, RedisTally, type WatcherTally } from './live/watchers.js';
import type { Election } from './db/index.js';
import { Metrics, routeLabel } from './metrics.js';
import { metricsRoutes } from './routes/metrics/index.js';
import { errorCodeOf } from './plugins/errors.js';
import { sharedCompilers } from './plugins/compilers.js';
import { bufferedStdout, requestIds, serializeError, serializeRequest } from './logging.js';

// Log helpers other modules import from here (index.ts, log-redaction.test.ts).
export { flushLog, redactTokens } from './logging.js';

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
  /** Where log lines go (default: stdout, buffered, or readable with LOG_FORMAT=pretty); tests pass their own to read them. */
  logStream?: pino.DestinationStream;
  /** Auctions the scheduler reads per milestone level at a time (tests make it small). */
  schedulerBatch?: number;
  /** The mail outbox's sender (tests: their own SMTP server, quick polls and retries). */
  mail?: { transport?: MailTransport; pollMs?: number; retryDelaysMs?: readonly number[] };
}

/** The first web address in a text (the link of a mail written to a file, for the log). */
const firstLink = (text: string) => /https?:\/\/\S+/.exec(text)?.[0];


/** The whole server, ready to `listen` or to `inject` into; nothing listens yet (tests build it on a fresh database). */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  setPasswordHashCost(config.passwordHashCost);
  setResponseTimeZone(config.timeZone);
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', '*.password', '*.new_password', '*.token'], censor: '[redacted]' },
      // The request line keeps method, path and query, but never a `token=` value (/api/ws?token=…).
      serializers: { req: serializeRequest, err: serializeError },
      // Buffered JSON (see bufferedStdout), or LOG_FORMAT=pretty's readable lines for a person (npm run dev).
      stream: options.logStream ?? (config.logFormat === 'pretty' ? prettyStdout() : bufferedStdout()),
    },
    // One line per request, written when it is answered (the onResponse hook below), not Fastify's two;
    // errors are logged by our own error handler (plugins/errors.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Validators and serializers compiled once per process, not per app (plugins/compilers.ts).
    schemaController: sharedCompilers,
    // Every log line of a request carries its id (`reqId`), echoed as X-Request-Id (the onRequest hook below).
    genReqId: requestIds(),
    // No coercion ("1000" is not a number: a 400); `x-error` carries a field's human message.
    ajv: { customOptions: { coerceTypes: false, allErrors: false, verbose: true, keywords: [X_ERROR, X_MISSING] } },
    forceCloseConnections: 'idle',
    // Slow requests and idle kept-alive connections are closed (plugins/connections.ts, docs/deploy.md).
    ...serverTimeouts(config),
    clientErrorHandler: answerClientError,
    // Requests that arrive while closing get our own 503 in the usual error shape (the onRequest hook below).
    return503OnClosing: false,
    // Behind a reverse proxy the client's address is in X-Forwarded-For (rate limits are per IP).
    trustProxy: config.trustProxy,
    // A URL refused before routing still gets the error shape and the security headers.
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Bodies that trickle, and connections over the per-address and process caps, are closed.
  const unguard = guardConnections(app.server, config, app.log);
  app.addHook('onClose', async () => { unguard(); });

  const store = await openStore(config.databaseUrl, { pgPool: config.pgPool, pgStatementTimeoutMs: config.pgStatementTimeoutMs });
  // Several processes share live events, watcher counts and rate limits over Redis (docs/deploy.md).
  let relay: Relay = new LocalRelay();
  let tally: WatcherTally = localTally;
  let redisRelay: RedisRelay | null = null;
  const onRedisError = (err: unknown) => app.log.error({ err }, 'redis');
  // Made once the live hub exists (below); the relay's first messages come after that.
  let metrics: Metrics | null = null;
  if (config.redisUrl) {
    const namespace = redisNamespace(config.databaseUrl);
    try {
      redisRelay = await RedisRelay.open({
        url: config.redisUrl, namespace, onError: onRedisError, onRecovered: (what) => app.log.warn(what),
        onLag: (seconds) => metrics?.relayLag.observe(seconds),
      });
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
  const secret = loadJwtSecret(config.jwtSecret, keyBeside);
  const tokens = await createTokenService(secret, config.tokenTtl);

  // JSON only: a text/plain body is 415, not a string handed to a route.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (DELETE, settle, or a client that always sends the header) reads as {}.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, {});
    return parseJson(req, body as string, done);
  });

  // External plugins first, then the application's own pieces, then the routes.
  securityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        // swagger-ui's page needs inline styles and its own scripts; the app itself needs nothing more.
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        // blob: for the product form's previews of photos being chosen (object URLs of the files).
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        // Plain-HTTP installs (localhost, a LAN address) must not have their assets forced to https.
        'upgrade-insecure-requests': null,
      },
    },
  });
  // Personal answers (a token, a write, the account's own areas) say `Cache-Control: no-store`.
  noStoreOnPersonal(app);
  if (config.corsOrigin) {
    await app.register(cors, {
      origin: config.corsOrigin,
      credentials: true,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'x-request-id'],
      exposedHeaders: ['x-request-id'],
    });
  }
  // Credential changes are limited per account as well as per IP: a wrong current password
  // costs a scrypt, and guessing must not go on by changing address. Null when RATE_LIMIT=off.
  let credentialRateLimit: onRequestAsyncHookHandler | null = null;
  if (config.rateLimit) {
    // With several processes the counters live in Redis, so a limit holds over the whole cluster; while
    // Redis is away (or slow to answer) each process counts on its own, and no request waits for it.
    let counters: RateLimitCounters | null = null;
    if (config.redisUrl && redisRelay) {
      try {
        counters = await RateLimitCounters.open({
          url: config.redisUrl,
          prefix: `auction-rl:${redisNamespace(config.databaseUrl)}:`,
          name: `auction-limits-${redisRelay.node}`,
          onError: onRedisError,
          onChange: (degraded, err) => {
            if (degraded) app.log.warn({ err }, 'rate limits: Redis is away or slow; counting in this process until it answers');
            else app.log.info('rate limits: counting in Redis again');
          },
        });
      } catch (err) {
        await redisRelay.close();
        await store.close();
        throw new Error(`Redis at ${config.redisUrl} cannot be reached: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      const opened = counters;
      app.addHook('onClose', () => opened.close());
    }
    await app.register(rateLimit, {
      global: false,
      ...(counters ? { store: counters.store, skipOnError: true } : {}),
      errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, code: 'RATE_LIMITED', message: `Too many attempts; try again in ${ctx.after}` }),
    });
    // Same store (Redis when shared) and options; the key is the caller's account, so users and admins
    // (separate id spaces) each have their own. The plugin allows one limit of its own per route (the
    // per-IP one, from the route's config), so this one is checked here, after the guard set `caller`.
    // 10 attempts per 15 minutes per account, successful or not (a wrong current password counts).
    const perAccount = app.createRateLimit({
      max: 10,
      timeWindow: 15 * 60_000,
      keyGenerator: (req) => `credentials:${req.caller?.role ?? 'none'}:${req.caller?.id ?? req.ip}`,
    });
    const inWords = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
    credentialRateLimit = async (req, reply) => {
      const limit = await perAccount(req);
      if (limit.isAllowed || !limit.isExceeded) return;
      const wait = limit.ttlInSeconds < 60 ? inWords(limit.ttlInSeconds, 'second') : inWords(Math.ceil(limit.ttlInSeconds / 60), 'minute');
      reply.header('retry-after', String(limit.ttlInSeconds));
      throw new AppError('RATE_LIMITED', `Too many password change attempts for this account; try again in ${wait}`);
    };
  }
  // Every answer of 1 KiB or more is compressed for a client that accepts it: brotli (at a level quick
  // enough for answers built per request), else gzip; only compressible types (JSON, HTML, JS, CSS, not
  // WebP photos). The client's own assets are compressed once at build and sent as they are.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
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
      // `file.br` / `file.gz` beside the file (written by the client build) for a client that accepts them.
      preCompressed: true,
      setHeaders: (res, file) => {
        // Vite fingerprints everything under assets/: cache it for good; never cache the page itself.
        res.header('cache-control', file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // @fastify/websocket routes every upgrade through Fastify, which would 404 socket.io's: hand those
  // to socket.io's own upgrade listener untouched (socket.io is attached with destroyUpgrade: false).
  app.addHook('onRequest', (req, reply, done) => {
    if (req.ws && req.url.startsWith('/socket.io/')) {
      void reply.hijack();
      return;
    }
    done();
  });

  // The request log: one line per request once answered, with the request line (tokens redacted),
  // the status and the time taken; an upgrade to a WebSocket (never answered as such) when it starts.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    if (req.ws) req.log.info({ req }, 'websocket upgrade');
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    if (metrics) {
      const route = req.routeOptions.url;
      const status = reply.statusCode;
      metrics.httpDuration.observe({ method: req.method, route: routeLabel(route), status }, reply.elapsedTime / 1000);
      if (route === '/api/bid' && req.method === 'POST') {
        metrics.bids.inc(status === 201 ? { result: 'accepted', code: '' } : { result: 'refused', code: errorCodeOf(reply) ?? String(status) });
      }
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
  const auctionList = new AuctionListCache(reads, now);
  events.onBatch(AUCTION_LIST_EVENTS, auctionList.onEvents);
  live.onForeignCatalogue(auctionList.invalidate);
  const categoryList = new CategoryListCache(reads, now);
  events.onBatch(CATEGORY_COUNT_EVENTS, categoryList.onEvents);
  live.onForeignCatalogue(categoryList.invalidate);
  // Every authenticated request's account check, from memory; a revocation here or elsewhere forgets it.
  const sessions = new SessionCache(reads);
  events.on('account:revoked', (e) => sessions.forget(e.role, e.id));
  events.on('account:deactivated', (e) => sessions.forget('user', e.userId));
  live.onForeignRevocation((role, id) => sessions.forget(role, id));
  // After a relay gap a revocation elsewhere may have gone unheard: every account is read again.
  live.onRelayGap(() => sessions.clear());
  attachSocketIo({ server: app.server, hub: live, tokens, reads, now, onError: logError, ...(config.corsOrigin ? { corsOrigin: config.corsOrigin } : {}) });
  const scheduler = new AuctionScheduler({
    reads, commands, events, now, autoSettle: config.autoSettle, log: app.log,
    ...(options.schedulerBatch ? { batch: options.schedulerBatch } : {}),
  });
  // Another process's catalogue change may move an ending this process's clock keeps.
  live.onForeignCatalogue(() => scheduler.changed());
  // A relayed change can be missed (Redis briefly away): the clock's process re-reads now and then too.
  if (redisRelay) setInterval(() => scheduler.changed(), 30_000).unref();
  // Mail (docs/email.md): written to the outbox in the transaction that causes it; sent after commit by
  // the process that keeps the clock, over SMTP when SMTP_URL is set, else as files in data/outbox/.
  const outboxDir = store.file ? path.join(path.dirname(store.file), 'outbox') : store.kind === 'postgres' ? fromRepoRoot('data/outbox') : path.join(os.tmpdir(), 'auction-outbox');
  const localSite = ['localhost', '127.0.0.1', '[::1]'].includes(new URL(config.publicUrl).hostname);
  const mailTransport = options.mail?.transport ?? (config.smtpUrl
    ? smtpTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom })
    : fileTransport({
      dir: outboxDir, from: config.mailFrom,
      // Without a mail server the link is in the log, so a person trying the app can follow it.
      // Only for a site on this machine (PUBLIC_URL at localhost, as `npm start` has it): elsewhere a log
      // line must not hold a working reset link.
      onWritten: (file, mail) => app.log.info({ file, to: mail.to, subject: mail.subject, ...(localSite ? { link: firstLink(mail.text) } : {}) }, 'mail written to a file (no SMTP_URL)'),
    }));
  const unsubscribeTokens = new UnsubscribeTokens(secret);
  const noticeMails = new NoticeMails(store, { now, publicUrl: config.publicUrl, unsubscribe: unsubscribeTokens });
  const mailSender = new MailSender(store, mailTransport, {
    now,
    ...(options.mail?.pollMs ? { pollMs: options.mail.pollMs } : {}),
    ...(options.mail?.retryDelaysMs ? { retryDelaysMs: options.mail.retryDelaysMs } : {}),
    beforeDrain: () => noticeMails.run(),
    onError: (err) => app.log.error({ err }, 'mail outbox'),
    onOutcome: (o) => {
      metrics?.mailSends.inc({ result: o.result });
      if (o.result === 'sent') app.log.debug({ mail: o.id, kind: o.kind }, 'mail sent');
      else app.log.warn({ mail: o.id, kind: o.kind, error: o.error }, o.result === 'retry' ? 'mail not sent; will retry' : 'mail given up');
    },
  });
  metrics = new Metrics({
    live: live.counts,
    connections: () => store.connections(),
    leading: () => scheduler.active,
    outbox: async () => {
      const [row] = await store.query<{ n: number; oldest: number | null }>('select count(*) as n, min(created_at) as oldest from mail_outbox where sent_at is null and failed_at is null');
      const oldest = row?.oldest == null ? null : Number(row.oldest);
      return { waiting: Number(row?.n ?? 0), oldestSeconds: oldest === null ? 0 : Math.max(0, (now() - oldest) / 1000) };
    },
  });
  // One process of those sharing the store keeps the clock (a PostgreSQL advisory lock; SQLite: this one).
  let election: Election | null = null;
  app.addHook('onReady', async () => {
    election = await store.elect('scheduler', async (leading) => {
      if (leading) {
        app.log.info('this process keeps the auction clock (endings, notices, settlement) and sends the mail');
        await scheduler.start();
        mailSender.start();
      } else {
        app.log.warn('this process no longer keeps the auction clock');
        await scheduler.stop();
        await mailSender.stop();
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
    await mailSender.stop();
    await election?.stop();
    live.closeSockets();
  });
  app.addHook('onClose', async () => {
    await live.close();
    mailTransport.close();
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
    guard: createGuards(app, tokens, sessions),
    optionalCaller: createOptionalCaller(tokens, sessions),
    authRateLimit: config.rateLimit ? { rateLimit: { max: 20, timeWindow: '1 minute' } } : {},
    publicReadLimit: config.rateLimit ? { rateLimit: { max: 300, timeWindow: '1 minute' } } : {},
    credentialRateLimit,
    userLimit: (name) => userLimit(config.rateLimit, name),
    events,
    live,
    auctionList,
    categoryList,
    scheduler,
    now,
    lifecycle,
    metrics,
  };
  app.decorate('ctx', ctx);
  // Prometheus' /metrics, outside /api (docs/deploy.md#monitoring).
  metricsRoutes(app, ctx);
  // Photo renditions at /media/{name}.webp, outside /api (public, cached for good: docs/photos.md).
  mediaRoutes(app, ctx);
  await app.register(async (api) => {
    systemRoutes(api, ctx);
    accountRoutes(api, ctx);
    catalogueRoutes(api, ctx);
    // Products in bulk: CSV in (text/csv or multipart, in a scope of its own) and out.
    productImportRoutes(api, ctx);
    adminProductRoutes(api, ctx);
    // Categories, lot numbers and the paged catalogue (docs/catalogue.md).
    categoryRoutes(api, ctx);
    browseRoutes(api, ctx);
    // Photos (multipart, in a scope of its own) and the lot page (docs/photos.md).
    imageRoutes(api, ctx);
    productPageRoutes(api, ctx);
    auctionRoutes(api, ctx);
    biddingRoutes(api, ctx);
    walletRoutes(api, ctx);
    adminRoutes(api, ctx);
    userAdminRoutes(api, ctx);
    // Saved lots and notifications (docs/notifications.md).
    savedRoutes(api, ctx);
    notificationRoutes(api, ctx);
    emailRoutes(api, ctx, { kick: () => mailSender.kick(), unsubscribe: unsubscribeTokens });
    wsFeed(api, ctx, live);
  }, { prefix: '/api' });

  return app;
}
