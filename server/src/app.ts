import path from 'node:path';
import type pino from 'pino';
import Fastify, { LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { X_ERROR, X_MISSING } from '@auction/shared';
import type { Config } from './config.js';
import type { App, AppContext } from './context.js';
import { openStore } from './db/index.js';
import { loadJwtSecret } from './auth/secret.js';
import { createTokenService } from './auth/tokens.js';
import { createGuards, createOptionalCaller } from './plugins/auth.js';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.js';
import { fromRepoRoot } from './paths.js';
import { prettyStdout } from './log-format.js';
import { setPasswordHashCost } from './auth/passwords.js';
import { setResponseTimeZone } from './presenters/format.js';
import { userLimit } from './plugins/rate-limits.js';
import { answerClientError, guardConnections, serverTimeouts } from './plugins/connections.js';
import type { Metrics } from './metrics.js';
import { sharedCompilers } from './plugins/compilers.js';
import { bufferedStdout, requestIds, serializeError, serializeRequest } from './logging.js';
import { emptyBodyAndNul, jsonBodies } from './plugins/json-body.js';
import { headersAndCors, requestLog, servingPlugins } from './plugins/http-basics.js';
import { rateLimits } from './plugins/rate-limits-setup.js';
import { connectRedis } from './redis-setup.js';
import { createMetrics, createServices } from './app-services.js';
import { setupMail, type MailOptions } from './mail/setup.js';
import { lifecycleHooks } from './app-lifecycle.js';
import { registerRoutes } from './routes/index.js';

// Log helpers other modules import from here (index.ts, log-redaction.test.ts).
export { flushLog, redactTokens } from './logging.js';

export const BODY_LIMIT = 64 * 1024;

export interface BuildOptions {
  /** The clock; tests pass their own. */
  now?: () => number;
  /** Where log lines go (default: stdout, buffered, or readable with LOG_FORMAT=pretty); tests pass their own to read them. */
  logStream?: pino.DestinationStream;
  /** Auctions the scheduler reads per milestone level at a time (tests make it small). */
  schedulerBatch?: number;
  /** The mail outbox's sender (tests: their own SMTP server, quick polls and retries). */
  mail?: MailOptions;
}

/** The Fastify instance with its logger and server options; no plugin, hook or route yet. */
function createFastify(config: Config, options: BuildOptions) {
  return Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', '*.password', '*.new_password', '*.token'], censor: '[redacted]' },
      // The request line keeps method, path and query, but never a `token=` value (/api/ws?token=…).
      serializers: { req: serializeRequest, err: serializeError },
      // Buffered JSON (see bufferedStdout), or LOG_FORMAT=pretty's readable lines for a person (npm run dev).
      stream: options.logStream ?? (config.logFormat === 'pretty' ? prettyStdout() : bufferedStdout()),
    },
    // One line per request, written when it is answered (the onResponse hook, plugins/http-basics.ts), not
    // Fastify's two; errors are logged by our own error handler (plugins/errors.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Validators and serializers compiled once per process, not per app (plugins/compilers.ts).
    schemaController: sharedCompilers,
    // Every log line of a request carries its id (`reqId`), echoed as X-Request-Id (the onRequest hook, plugins/http-basics.ts).
    genReqId: requestIds(),
    // No coercion ("1000" is not a number: a 400); `x-error` carries a field's human message.
    ajv: { customOptions: { coerceTypes: false, allErrors: false, verbose: true, keywords: [X_ERROR, X_MISSING] } },
    forceCloseConnections: 'idle',
    // Slow requests and idle kept-alive connections are closed (plugins/connections.ts, docs/deploy.md).
    ...serverTimeouts(config),
    clientErrorHandler: answerClientError,
    // Requests that arrive while closing get our own 503 in the usual error shape (the onRequest hook, app-lifecycle.ts).
    return503OnClosing: false,
    // Behind a reverse proxy the client's address is in X-Forwarded-For (rate limits are per IP).
    trustProxy: config.trustProxy,
    // A URL refused before routing still gets the error shape and the security headers.
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/**
 * The whole server, ready to `listen` or to `inject` into; nothing listens yet (tests build it on a fresh database).
 * Every step runs on the root instance, in this order (Fastify runs hooks in the order they are added).
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<App> {
  setPasswordHashCost(config.passwordHashCost);
  setResponseTimeZone(config.timeZone);
  const app = createFastify(config, options);

  // Bodies that trickle, and connections over the per-address and process caps, are closed.
  const unguard = guardConnections(app.server, config, app.log);
  app.addHook('onClose', async () => { unguard(); });

  const store = await openStore(config.databaseUrl, { pgPool: config.pgPool, pgStatementTimeoutMs: config.pgStatementTimeoutMs });
  // Made once the live hub exists (below); the relay, the request log and the mail read it when they need it.
  let metrics: Metrics | null = null;
  const shared = await connectRedis(app, config, store, () => metrics);
  // Without JWT_SECRET the key is kept beside the SQLite file, or in ./data for PostgreSQL.
  const keyBeside = store.file ?? (store.kind === 'postgres' ? path.join(fromRepoRoot('data'), 'postgres') : null);
  const secret = loadJwtSecret(config.jwtSecret, keyBeside);
  const tokens = await createTokenService(secret, config.tokenTtl);

  jsonBodies(app);
  // External plugins first, then the application's own pieces, then the routes.
  await headersAndCors(app, config);
  const credentialRateLimit = await rateLimits(app, config, { store, ...shared });
  await servingPlugins(app);
  requestLog(app, () => metrics);
  emptyBodyAndNul(app);

  // Then the application's own pieces: errors, auth, the event bus and the live channel, then routes.
  registerErrorHandling(app);
  const services = createServices(app, config, { store, shared, tokens, now: options.now, schedulerBatch: options.schedulerBatch });
  const { now, sessions } = services;
  const mail = setupMail(app, config, options.mail, { store, now, secret, metrics: () => metrics });
  metrics = createMetrics(store, services);
  const lifecycle = lifecycleHooks(app, { store, scheduler: services.scheduler, mailSender: mail.sender, mailTransport: mail.transport, live: services.live });

  const ctx: AppContext = {
    config,
    store,
    reads: services.reads,
    commands: services.commands,
    tokens,
    guard: createGuards(app, tokens, sessions),
    optionalCaller: createOptionalCaller(tokens, sessions),
    authRateLimit: config.rateLimit ? { rateLimit: { max: 20, timeWindow: '1 minute' } } : {},
    publicReadLimit: config.rateLimit ? { rateLimit: { max: 300, timeWindow: '1 minute' } } : {},
    credentialRateLimit,
    userLimit: (name) => userLimit(config.rateLimit, name),
    events: services.events,
    live: services.live,
    auctionList: services.auctionList,
    categoryList: services.categoryList,
    scheduler: services.scheduler,
    now,
    lifecycle,
    metrics,
  };
  app.decorate('ctx', ctx);
  await registerRoutes(app, ctx, { live: services.live, mailSender: mail.sender, unsubscribeTokens: mail.unsubscribeTokens });

  return app;
}
