/** `GET /metrics` (docs/deploy.md#monitoring): Prometheus' text format, for this machine or a bearer of METRICS_TOKEN. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AggregatorRegistry } from 'prom-client';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { mergedMetrics } from '../../cluster-metrics.js';

const digest = (s: string) => createHash('sha256').update(s).digest();
const LOOPBACK = /^(?:127\.|::1$|::ffff:127\.)/;

/**
 * A caller on this machine: the connection comes from a loopback address and no proxy relayed it (a
 * proxy on the same machine connects from loopback too, but says whom it speaks for).
 */
function fromThisMachine(req: FastifyRequest): boolean {
  const peer = req.raw.socket.remoteAddress ?? '';
  return LOOPBACK.test(peer) && req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;
}

export function metricsRoutes(app: App, ctx: AppContext) {
  const token = ctx.config.metricsToken === undefined ? null : digest(ctx.config.metricsToken);
  const bearer = (req: FastifyRequest) => {
    const m = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    return token !== null && m !== null && timingSafeEqual(digest(m[1]!), token);
  };
  app.get('/metrics', {
    schema: { tags: ['system'], summary: 'Prometheus metrics (text format): for callers on this machine, or with Authorization: Bearer METRICS_TOKEN' },
  }, async (req, reply) => {
    if (!bearer(req) && !fromThisMachine(req)) {
      throw new AppError('FORBIDDEN', token === null
        ? 'Metrics are answered only to callers on this machine (set METRICS_TOKEN to read them from elsewhere)'
        : 'Metrics need Authorization: Bearer <METRICS_TOKEN> from outside this machine');
    }
    return reply.type(AggregatorRegistry.PROMETHEUS_CONTENT_TYPE).header('cache-control', 'no-store').send(await mergedMetrics(ctx.metrics));
  });
}
