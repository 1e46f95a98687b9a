/** The Saved page's pure rules: what a saved lot's price line says, where its photo and its page are. */
import type { Product } from '@auction/shared';
import { lotPath } from '../../config/paths';
export { mediaSrc } from '../../lib/media';

/** The price a lot shows: its highest bid, or before any bid (and unsold) the bid it starts at. */
export function priceOf(lot: Pick<Product, 'highest_bid' | 'min_next_bid' | 'status'>): { label: 'Highest bid' | 'Starting bid'; amount: number } {
  return lot.highest_bid <= 0 && lot.status !== 'sold'
    ? { label: 'Starting bid', amount: lot.min_next_bid }
    : { label: 'Highest bid', amount: lot.highest_bid };
}

/** The lot's own page, or null when the lot is in no auction now. */
export function lotLinkOf(lot: Pick<Product, 'id' | 'auction_id'>): string | null {
  return lot.auction_id === null ? null : lotPath(lot.auction_id, lot.id);
}

