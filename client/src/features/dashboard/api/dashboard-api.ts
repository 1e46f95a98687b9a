import type { Auction, Transaction, Transactions, UserBid, WalletBalance } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The four reads behind the user dashboard, each with the user's token. */
export const dashboardApi = {
  auctions: (signal?: AbortSignal) => api.get<Auction[]>('/auctions', { as: 'user', signal }),
  bids: (signal?: AbortSignal) => api.get<UserBid[]>('/user-bids', { as: 'user', signal }),
  transactions: async (signal?: AbortSignal) =>
    (await api.get<Transactions>('/wallet/transactions', { as: 'user', signal })).transactions,
  // Identity comes from the token; the body stays empty (the server accepts `{}`).
  balance: async (signal?: AbortSignal) =>
    (await api.post<WalletBalance>('/wallet', {}, { as: 'user', signal })).wallet_balance,
};

export interface DashboardData {
  auctions: Auction[];
  bids: UserBid[];
  transactions: Transaction[];
  /** Null when the balance call failed. */
  balance: number | null;
  /** Which of the four reads failed. */
  failed: { auctions: boolean; bids: boolean; transactions: boolean; balance: boolean };
  /** The errors of the failed reads, for callers that tell a 401 apart. */
  errors: unknown[];
}

// A failed read, or an answer of the wrong shape, counts as an empty list.
function listOf<T>(result: PromiseSettledResult<T[]>): T[] {
  if (result.status !== 'fulfilled') return [];
  const value: unknown = result.value;
  return Array.isArray(value) ? result.value : [];
}

/**
 * Loads everything in parallel. A failed read leaves an empty list (the dashboard tolerates single
 * failures); the caller decides what to say when all of them fail.
 */
export async function loadDashboard(signal?: AbortSignal): Promise<DashboardData> {
  const [auctions, bids, transactions, balance] = await Promise.allSettled([
    dashboardApi.auctions(signal),
    dashboardApi.bids(signal),
    dashboardApi.transactions(signal),
    dashboardApi.balance(signal),
  ]);
  const errors = [auctions, bids, transactions, balance].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  return {
    auctions: listOf(auctions),
    bids: listOf(bids),
    transactions: listOf(transactions),
    balance: balance.status === 'fulfilled' && typeof balance.value === 'number' ? balance.value : null,
    failed: {
      auctions: auctions.status === 'rejected',
      bids: bids.status === 'rejected',
      transactions: transactions.status === 'rejected',
      balance: balance.status === 'rejected',
    },
    errors,
  };
}
