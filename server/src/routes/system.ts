import { HealthBody, TimeBody } from '@auction/shared';
import type { App, AppContext } from '../context.js';

export function systemRoutes(app: App, ctx: AppContext) {
  app.get('/health', {
    schema: { tags: ['system'], summary: 'Liveness, the store in use and its state', response: { 200: HealthBody, 503: HealthBody } },
  }, async (_req, reply) => {
    const dbOk = await ctx.store.ping();
    return reply.code(dbOk ? 200 : 503).send({ status: dbOk ? 'ok' : 'error', db: dbOk ? 'ok' : 'unreachable', store: ctx.store.kind });
  });

  app.get('/time', {
    schema: { tags: ['system'], summary: 'Server clock, for client countdown offsets', response: { 200: TimeBody } },
  }, async () => ({ server_time: new Date(ctx.now()).toISOString() }));
}
