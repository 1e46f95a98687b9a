// Test-only helpers: a saved lot factory (a bidder's product shape as GET /api/saved answers it).
import type { Product } from '@auction/shared';

let nextId = 1;

export function makeSavedLot(over: Partial<Product> = {}): Product {
  const id = `SV-${nextId++}`;
  return {
    id, name: `Lot ${id}`, description: 'A saved lot', status: 'available', auction_id: 'AUC-1', highest_bid: 0, bid_count: 0, version: 0,
    starting_price: 0, min_next_bid: 1, reserve_met: null, buy_now_price: null, my_status: null, my_max: null, images: [], saved: true, ...over,
  };
}
