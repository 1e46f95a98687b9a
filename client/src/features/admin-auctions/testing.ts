// Test-only helpers: admin auction and product factories, and the shared fetch stub (test/utils).
import type { AdminAuction, BidPlacedData, BidRolledBackData, LiveAuction, Product } from '@auction/shared';

export function makeAdminAuction(over: Partial<AdminAuction> = {}): AdminAuction {
  const validUntil = over.valid_until ?? new Date(Date.now() + 3 * 86_400_000).toISOString();
  return {
    id: 'AUC-1', name: 'Spring Sale', valid_until: validUntil,
    product_ids: ['P-1'], registrations: [], product_count: 1, status: 'active', created_by: 1,
    created_at: '2026-03-01T10:00:00.000Z', settled_at: null,
    original_valid_until: validUntil, increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 120, max_extension_s: 3600, extended: false,
    ...over,
  };
}

/** A product whose every change so far was a bid, so its version is its bid count unless given; no reserve, no buy-now. */
export function makeProduct(over: Partial<Product> = {}): Product {
  const highest = over.highest_bid ?? 0;
  return {
    id: 'P-1', name: 'Ming Vase', description: 'Blue and white', status: 'available', auction_id: 'AUC-1', highest_bid: highest, bid_count: 0,
    version: over.bid_count ?? 0, starting_price: 0, min_next_bid: highest > 0 ? highest + 1 : 1, reserve_met: null, buy_now_price: null, images: [],
    my_status: null, my_max: null, reserve_price: null,
    ...over,
  };
}

/** A `bid:placed` payload: ravi_k's ₹750 on P-1 of AUC-1, leading (version 2), no reserve, not automatic. */
export function bidPlaced(over: Partial<BidPlacedData> = {}): BidPlacedData {
  const at = over.timestamp ?? '2026-03-01T10:05:00.000Z';
  const highest = over.highest_bid ?? 750;
  return {
    auction_id: 'AUC-1', product_id: 'P-1', bid_id: 2, highest_bid: highest, bid_count: 2, version: 2, bidder: 'ravi_k', amount: highest,
    timestamp: at, server_time: at, min_next_bid: highest + 1, reserve_met: null, buy_now_available: false, auto: false, ...over,
  };
}

/** A `bid:rolledback` payload for P-1 of AUC-1. */
export function bidRolledBack(over: Partial<BidRolledBackData> = {}): BidRolledBackData {
  const highest = over.highest_bid ?? 0;
  return {
    auction_id: 'AUC-1', product_id: 'P-1', highest_bid: highest, bid_count: 1, version: 2, server_time: '2026-03-01T10:09:00.000Z',
    min_next_bid: highest > 0 ? highest + 1 : 1, reserve_met: null, buy_now_available: false, ...over,
  };
}

/** An auction's live summary (`auction:created`/`auction:updated`), as the server sends it. */
export function liveSummary(a: AdminAuction, over: Partial<LiveAuction> = {}): LiveAuction {
  return {
    id: a.id, name: a.name, valid_until: a.valid_until, product_count: a.product_count, status: a.status, server_time: a.created_at,
    original_valid_until: a.original_valid_until, increment_rule: a.increment_rule, increment_amount: a.increment_amount, increment_tiers: a.increment_tiers,
    cancel_policy: a.cancel_policy, soft_close_s: a.soft_close_s, max_extension_s: a.max_extension_s,
    extended: a.extended, ...over,
  };
}

export { routeFetch } from '../../test/utils';
