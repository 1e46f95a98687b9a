/** The bidder's side of auctions: browse, products, register, my auctions. */
import { Type } from 'typebox';
import { Auction, IdParams, MessageBody, Product, RegisterForAuctionBody, errorResponses } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { registerForAuction } from '../../domain/catalogue.js';
import { AppError, unwrap } from '../../errors.js';
import { presentUser } from '../../presenters/accounts.js';
import { presentProduct } from '../../presenters/catalogue.js';
import { callerOf } from '../input.js';

export function auctionRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['auctions'];
  const security = [{ bearer: [] }];

  app.get('/auctions', {
    onRequest: guard.any,
    schema: {
      tags, security,
      summary: 'Every auction, newest first, with the caller’s registration, its cover and its lots’ highest bid and bid count',
      description: 'Answered from memory; send the `ETag` back as `If-None-Match` to get 304 when nothing changed. '
        + 'Catalogue changes (photos included) show at once; `highest_bid` and `bid_count` follow bids within about a second '
        + '(up to 5 s for bids taken by another server process).',
      response: { 200: Type.Array(Auction), 304: Type.Null({ description: 'Not modified' }), ...errorResponses(401) },
    },
  }, async (req, reply) => {
    const caller = callerOf(req);
    const answer = await ctx.auctionList.answer(caller.role === 'user' ? caller.id : null, req.headers['if-none-match']);
    // Per caller (registrations), and always revalidated: the ETag makes that a 304 without a body.
    void reply.header('etag', answer.etag).header('cache-control', 'private, no-cache').header('vary', 'authorization');
    if (answer.body === null) return reply.code(304).send(null);
    return answer.body;
  });

  app.get('/auctions/:id/products', {
    onRequest: ctx.optionalCaller,
    config: ctx.publicReadLimit,
    schema: {
      tags, security: [{}, { bearer: [] }],
      summary: 'Products of an auction with their highest bid, pricing and the caller’s own standing',
      description: 'Public, as `GET /products/{id}`: without a token (or with one that is no longer valid) the lots read as a visitor sees them, with no `my_status`, no `saved` and no reserve.',
      params: IdParams, response: { 200: Type.Array(Product), ...errorResponses(404, 429) },
    },
  }, async (req) => {
    if (!(await reads.auctionExists(req.params.id))) throw new AppError('NOT_FOUND', 'Auction not found');
    const caller = req.caller;
    const userId = caller?.role === 'user' ? caller.id : null;
    const [products, standings, savedIds] = await Promise.all([
      reads.productsOfAuction(req.params.id, ctx.now()),
      userId !== null ? reads.myStandings(userId, req.params.id) : Promise.resolve([]),
      // The caller's saved lots: one indexed read, as the standings.
      userId !== null ? reads.savedIn(userId, req.params.id) : Promise.resolve([]),
    ]);
    const mine = new Map(standings.map((s) => [s.productId, s]));
    const saved = new Set(savedIds);
    return products.map((p) => presentProduct(p, caller?.role === 'admin' ? { adminId: caller.id }
      : userId !== null ? { standing: mine.get(p.id) ?? null, saved: saved.has(p.id) } : null));
  });

  app.post('/auctions/register', {
    onRequest: guard.user,
    schema: { tags, security, summary: 'Register for an auction (idempotent)', body: RegisterForAuctionBody, response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404, 409) } },
  }, async (req) => {
    const cmd = { userId: callerOf(req).id, auctionId: req.body.auction_id };
    const r = unwrap(await commands.run((tx) => registerForAuction(tx, cmd, ctx.now())));
    return { message: r.already ? 'Already registered for this auction' : 'Successfully registered for auction!' };
  });

  app.get('/my_auctions', {
    onRequest: guard.user,
    schema: {
      tags, security, summary: 'The caller and the auctions they registered for',
      response: {
        200: Type.Object({ user_details: Type.Object({ id: Type.Integer(), name: Type.String(), username: Type.String(), mobile_number: Type.String(), auctions: Type.Array(Type.String()) }) }),
        ...errorResponses(401, 403),
      },
    },
  }, async (req) => {
    const user = await reads.user(callerOf(req).id);
    if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in');
    return { user_details: { ...presentUser(user), auctions: await reads.registeredAuctionIds(user.id) } };
  });
}
