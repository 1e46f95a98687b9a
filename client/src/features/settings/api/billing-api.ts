/** The bidder's billing details (docs/invoices.md): who invoices are made out to, read and saved whole. */
import { queryOptions } from '@tanstack/react-query';
import type { Billing, PutBillingBody } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { setQueryFresh } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';

export const billingKey = queryRoots.billing;

/** GET /me/billing (bidders only): the details, null until given. */
export const billingQuery = () => queryOptions({
  queryKey: billingKey,
  queryFn: ({ signal }) => api.get<Billing>('/me/billing', { as: 'user', signal }),
});

/** PUT /me/billing with the whole of them; the answer is the details as stored. */
export const saveBilling = (body: PutBillingBody) => api.put<Billing>('/me/billing', body, { as: 'user' });

/** The save's answer is newer than any read in flight: it is what the card shows now. */
export const billingSaved = (billing: Billing) => setQueryFresh(billingKey, billing);
