import type { Auction } from '@auction/shared';
import { api } from '../../../lib/api-client';

/**
 * The dashboard's own read, with the user's token (bids, balance and ledger are the bids and wallet
 * features' resources). An answer of the wrong shape reads as an empty list.
 */
export async function fetchAuctions(): Promise<Auction[]> {
  const data = await api.get<unknown>('/auctions', { as: 'user' });
  return Array.isArray(data) ? (data as Auction[]) : [];
}
