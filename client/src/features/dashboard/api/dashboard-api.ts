import type { AuctionSearchPage } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { queryFamily } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';
import { RECENT_COUNT } from '../stats';

const asUser = { as: 'user' } as const;

/**
 * The dashboard's own reads, with the user's token (bids, balance and ledger are the shared queries of
 * lib/account). Never the whole auction list: one page of the catalogue gives the newest open auctions
 * (Recent Auctions, newest first as the spec's list is) and the counts per tab (Active Auctions, Ending
 * Soon), and the caller's registrations give Registered Auctions. An answer of the wrong shape reads as
 * none.
 */
export async function fetchDashboardAuctions(): Promise<AuctionSearchPage> {
  const data = await api.get<Partial<AuctionSearchPage> | undefined>('/catalogue/auctions', { ...asUser, query: { sort: 'newest', limit: RECENT_COUNT } });
  const counts = data?.counts;
  return {
    items: Array.isArray(data?.items) ? data.items : [],
    next_cursor: null,
    counts: { active: counts?.active ?? 0, ending: counts?.ending ?? 0, ended: counts?.ended ?? 0 },
  };
}

/** The ids of the auctions the caller registered for (`GET /my_auctions`). */
export async function fetchRegisteredAuctions(): Promise<string[]> {
  const data = await api.get<{ user_details?: { auctions?: unknown } } | undefined>('/my_auctions', asUser);
  const ids = data?.user_details?.auctions;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** The newest open auctions and the counts per tab (query options). */
export const dashboardAuctions = queryFamily<void, AuctionSearchPage>(queryRoots.dashboardAuctions, () => fetchDashboardAuctions());
/** The auctions the caller registered for (query options). */
export const registeredAuctions = queryFamily<void, string[]>(queryRoots.registeredAuctions, () => fetchRegisteredAuctions());
