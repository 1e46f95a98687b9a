/** A house's profile (docs/invoices.md): GET and PUT /admin/house, the admin's own only. */
import { House, PutHouseBody, errorResponses } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { saveHouse } from '../../domain/house.js';
import { unwrap } from '../../errors.js';
import { houseInput, presentHouse } from '../../presenters/house.js';
import { callerOf } from '../input.js';

export function houseRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['house'];
  const security = [{ bearer: [] }];

  app.get('/admin/house', {
    onRequest: guard.admin,
    schema: {
      tags, security, summary: 'Your house’s profile: the seller of record on your invoices, your payout account (masked) and pickup locations, and what settling still needs',
      response: { 200: House, ...errorResponses(401, 403) },
    },
  }, async (req) => {
    const { house, locations } = await reads.house(callerOf(req).id);
    return presentHouse(house, locations);
  });

  app.put('/admin/house', {
    onRequest: guard.admin,
    config: ctx.userLimit('settings'),
    schema: {
      tags, security, summary: 'Save your house’s whole profile (a field left null is not filled in; pickup locations not listed are taken out)',
      body: PutHouseBody, response: { 200: House, ...errorResponses(400, 401, 403, 409, 429) },
    },
  }, async (req) => {
    const cmd = { adminId: callerOf(req).id, ...houseInput(req.body) };
    const r = unwrap(await commands.run((tx) => saveHouse(tx, cmd, ctx.now())));
    return presentHouse(r.house, r.locations);
  });
}
