import type { RollbackBody, RolledBack, UserBid } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The caller's bids, newest first. */
export async function fetchUserBids(signal?: AbortSignal): Promise<UserBid[]> {
  const data = await api.get<unknown>('/user-bids', { as: 'user', signal });
  return Array.isArray(data) ? (data as UserBid[]) : [];
}

/** Cancels one of the caller's leading bids; the hold is refunded at once. */
export function rollbackBid(bidId: number): Promise<RolledBack> {
  return api.post<RolledBack>('/rollback-bid', { bid_id: bidId } satisfies RollbackBody, { as: 'user' });
}
