// Test-only helpers: a lot card as GET /api/catalogue/lots lists it, and a page of them.
import type { LotCard, LotSearchPage } from '@auction/shared';

let nextId = 1;

export function makeLotCard(over: Partial<LotCard> = {}): LotCard {
  const id = `LOT-${nextId++}`;
  return {
    id, lot_number: 1, name: `Lot ${id}`, cover: null, highest_bid: 0, min_next_bid: 100, bid_count: 0, buy_now_price: null,
    category: null, auction: { id: 'AUC-1', name: 'Spring Sale', valid_until: '2026-06-02T10:00:00.000Z' }, ...over,
  };
}

export function lotPage(items: LotCard[], next_cursor: string | null = null, total = items.length): LotSearchPage {
  return { items, next_cursor, total };
}
