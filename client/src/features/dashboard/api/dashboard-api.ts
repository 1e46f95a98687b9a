import type { Auction } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { queryFamily } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';

/**
 * The dashboard's own read, with the user's token (bids, balance and ledger are the shared queries of
 * lib/account). An answer of the wrong shape reads as an empty list.
 */
export async function fetchAuctions(): Promise<Auction[]> {
  const data = await api.get<unknown>('/auctions', { as: 'user' });
  return Array.isArray(data) ? (data as Auction[]) : [];
}

/** The auctions as the dashboard lists them, with the caller's registrations (query options). */
export const dashboardAuctions = queryFamily<void, Auction[]>(queryRoots.dashboardAuctions, () => fetchAuctions());
