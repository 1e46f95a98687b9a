// Test-only helpers: admin auction and product factories, and the shared fetch stub (test/utils).
import type { AdminAuction, Product } from '@auction/shared';

export function makeAdminAuction(over: Partial<AdminAuction> = {}): AdminAuction {
  return {
    id: 'AUC-1', name: 'Spring Sale', valid_until: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    product_ids: ['P-1'], registrations: [], product_count: 1, status: 'active', created_by: 1,
    created_at: '2026-03-01T10:00:00.000Z', settled_at: null, ...over,
  };
}

/** A product whose every change so far was a bid, so its version is its bid count unless given. */
export function makeProduct(over: Partial<Product> = {}): Product {
  return {
    id: 'P-1', name: 'Ming Vase', description: 'Blue and white', status: 'available', auction_id: 'AUC-1', highest_bid: 0, bid_count: 0,
    version: over.bid_count ?? 0, ...over,
  };
}

export { routeFetch } from '../../test/utils';
