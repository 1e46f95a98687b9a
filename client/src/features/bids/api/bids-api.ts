import type { RollbackBody, RolledBack } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** Cancels one of the caller's leading bids; the hold is refunded at once. */
export function rollbackBid(bidId: number): Promise<RolledBack> {
  return api.post<RolledBack>('/rollback-bid', { bid_id: bidId } satisfies RollbackBody, { as: 'user' });
}

export { fetchUserBids } from '../../../lib/account/my-bids';
