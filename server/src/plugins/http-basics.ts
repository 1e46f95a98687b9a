import fs from 'node:fs';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import type { Config } from '../config.js';
import type { App } from '../context.js';
import { routeLabel, type Metrics } from '../metrics.js';
import { CLIENT_DIST } from '../paths.js';
import { errorCodeOf } from './errors.js';
import { noStoreOnPersonal } from './no-store.js';
import { securityHeaders } from './security-headers.js';

// The HTTP basics, registered on the root instance by app.ts in this order: security headers,
// no-store and CORS; (the rate limits;) compression, the API docs, the client's files and WebSockets;
// then the request log.

/** Security headers, `Cache-Control: no-store` on personal answers, and CORS when CORS_ORIGIN is set. */
export async function headersAndCors(app: App, config: Config): Promise<void> {
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
}

/** Compression, the OpenAPI document and its UI at /api/docs, the client's built files, and WebSockets. */
export async function servingPlugins(app: App): Promise<void> {
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
}

/**
 * The request log: one line per request once answered, with the request line (tokens redacted),
 * the status and the time taken; an upgrade to a WebSocket (never answered as such) when it starts.
 * `metrics` is read per answer (the metrics are made after these hooks).
 */
export function requestLog(app: App, metrics: () => Metrics | null): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    if (req.ws) req.log.info({ req }, 'websocket upgrade');
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    const m = metrics();
    if (m) {
      const route = req.routeOptions.url;
      const status = reply.statusCode;
      m.httpDuration.observe({ method: req.method, route: routeLabel(route), status }, reply.elapsedTime / 1000);
      if (route === '/api/bid' && req.method === 'POST') {
        m.bids.inc(status === 201 ? { result: 'accepted', code: '' } : { result: 'refused', code: errorCodeOf(reply) ?? String(status) });
      }
    }
    done();
  });
}
