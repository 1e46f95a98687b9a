/** Saved lots (docs/notifications.md#saved-lots): a bidder's starred lots, and the notices they bring (docs/notifications.md). */
import { Type } from 'typebox';
import { SavedLot, SavedLotParams, errorResponses } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { saveLot, unsaveLot } from '../../domain/notices.js';
import { unwrap } from '../../errors.js';
import { presentSavedLot } from '../../presenters/saved.js';
import { callerOf } from '../input.js';

export function savedRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['saved'];
  const security = [{ bearer: [] }];

  app.get('/saved', {
    onRequest: guard.user,
    schema: {
      tags, security, summary: 'The lots the caller saved, the most recently saved first, with the caller’s standing and each lot’s auction',
      response: { 200: Type.Array(SavedLot), ...errorResponses(401, 403) },
    },
  }, async (req) => {
    const me = callerOf(req).id;
    const now = ctx.now();
    const [products, standings] = await Promise.all([reads.savedProducts(me, now), reads.savedStandings(me)]);
    const mine = new Map(standings.map((s) => [s.productId, s]));
    return products.map((p) => presentSavedLot(p, mine.get(p.id) ?? null, now));
  });

  app.put('/saved/:productId', {
    onRequest: guard.user,
    config: ctx.userLimit('saved'),
    schema: {
      tags, security, summary: 'Save a lot (idempotent): its bidders’ notices reach the caller too', params: SavedLotParams,
      response: { 204: Type.Null({ description: 'Saved' }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const cmd = { userId: callerOf(req).id, productId: req.params.productId };
    unwrap(await commands.run((tx) => saveLot(tx, cmd, ctx.now())));
    return reply.code(204).send(null);
  });

  app.delete('/saved/:productId', {
    onRequest: guard.user,
    config: ctx.userLimit('saved'),
    schema: {
      tags, security, summary: 'Forget a saved lot (idempotent)', params: SavedLotParams,
      response: { 204: Type.Null({ description: 'Not saved' }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  }, async (req, reply) => {
    const cmd = { userId: callerOf(req).id, productId: req.params.productId };
    unwrap(await commands.run((tx) => unsaveLot(tx, cmd)));
    return reply.code(204).send(null);
  });
}
