// Test-only helpers: a saved lot factory (a bidder's product shape as GET /api/saved answers it).
import type { SavedLot } from '@auction/shared';

let nextId = 1;

/** A saved lot; its `auction` (open until 2099, named after its id) follows `auction_id` unless given. */
export function makeSavedLot(over: Partial<SavedLot> = {}): SavedLot {
  const id = `SV-${nextId++}`;
  const auctionId = over.auction_id === undefined ? 'AUC-1' : over.auction_id;
  return {
    id, name: `Lot ${id}`, description: 'A saved lot', status: 'available', auction_id: auctionId, highest_bid: 0, bid_count: 0, version: 0,
    starting_price: 0, min_next_bid: 1, reserve_met: null, buy_now_price: null, my_status: null, my_max: null, images: [], saved: true,
    auction: auctionId === null ? null : { id: auctionId, name: `Sale ${auctionId}`, valid_until: '2099-01-01T00:00:00.000Z', status: 'active' },
    ...over,
  };
}
