import { DemoBody, HealthBody, TimeBody } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { iso } from '../../presenters/format.js';

export function systemRoutes(app: App, ctx: AppContext) {
  app.get('/health', {
    schema: { tags: ['system'], summary: 'Liveness: the store and Redis in use and their state; 503 when either is unreachable or the process is draining', response: { 200: HealthBody, 503: HealthBody } },
  }, async (_req, reply) => {
    const relay = ctx.live.relay;
    const [dbOk, redis] = await Promise.all([ctx.store.ping(), relay.kind === 'local' ? 'off' as const : relay.check()]);
    const { draining } = ctx.lifecycle;
    const ok = dbOk && redis !== 'unreachable' && !draining;
    return reply.code(ok ? 200 : 503).send({
      status: ok ? 'ok' : draining ? 'draining' : 'error', db: dbOk ? 'ok' : 'unreachable', store: ctx.store.kind, redis, draining,
      scheduler: ctx.scheduler.active ? 'active' : 'standby',
    });
  });

  app.get('/demo', {
    schema: { tags: ['system'], summary: 'The demo accounts to sign in with, when this server runs `npm run demo`; null otherwise', response: { 200: DemoBody } },
  }, async () => ({ demo: ctx.config.demo ?? null }));

  app.get('/time', {
    schema: { tags: ['system'], summary: 'Server clock, for client countdown offsets', response: { 200: TimeBody } },
  }, async () => ({ server_time: iso(ctx.now()) }));
}
