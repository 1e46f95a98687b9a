/** A buyer's billing details (docs/invoices.md): GET and PUT /me/billing, the bidder's own. */
import { Billing, PutBillingBody, errorResponses } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { saveBilling } from '../../domain/billing.js';
import { unwrap } from '../../errors.js';
import { billingInput, presentBilling } from '../../presenters/house.js';
import { callerOf } from '../input.js';

export function billingRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['accounts'];
  const security = [{ bearer: [] }];

  app.get('/me/billing', {
    onRequest: guard.user,
    schema: { tags, security, summary: 'Your billing details: who your invoices are made out to (null until given)', response: { 200: Billing, ...errorResponses(401, 403) } },
  }, async (req) => presentBilling(await reads.billing(callerOf(req).id)));

  app.put('/me/billing', {
    onRequest: guard.user,
    config: ctx.userLimit('settings'),
    schema: {
      tags, security, summary: 'Save your billing details (a business buyer gives its GSTIN); invoices already issued keep the details they were issued with',
      body: PutBillingBody, response: { 200: Billing, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (req) => {
    const details = billingInput(callerOf(req).id, req.body);
    const r = unwrap(await commands.run((tx) => saveBilling(tx, details, ctx.now())));
    return presentBilling(r.billing);
  });
}
