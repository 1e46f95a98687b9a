// Test-only helpers: a bid factory and the shared fetch stub (test/utils).
import type { UserBid } from '@auction/shared';

let nextId = 100;

export function makeBid(over: Partial<UserBid> = {}): UserBid {
  const id = nextId++;
  return {
    bid_id: id, product_id: `P-${id}`, product_name: `Product ${id}`, auction_id: 'A-1', auction_name: 'Spring Sale',
    amount: 1000, timestamp: '2026-03-01T10:00:00.000Z', status: 'success', reason: null, ...over,
  };
}

export { routeFetch } from '../../test/utils';
