// Test-only helpers: a bid factory and the shared fetch stub (test/utils).
import { wireBidStatus, type UserBid } from '@auction/shared';

let nextId = 100;

/**
 * A bid as `GET /user-bids` lists it: `state` (default success) with the spec's `status` that goes with
 * it, and its auction open until 2099 with the default cancel policy.
 */
export function makeBid(over: Partial<UserBid> = {}): UserBid {
  const id = nextId++;
  const state = over.state ?? 'success';
  return {
    bid_id: id, product_id: `P-${id}`, product_name: `Product ${id}`, auction_id: 'A-1', auction_name: 'Spring Sale',
    amount: 1000, timestamp: '2026-03-01T10:00:00.000Z', status: wireBidStatus(state), state, reason: null,
    auction_valid_until: '2099-01-01T00:00:00.000Z', auction_status: 'active', auction_cancel_policy: 'until_end', ...over,
  };
}

export { routeFetch } from '../../test/utils';
