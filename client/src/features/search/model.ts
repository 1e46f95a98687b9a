/**
 * The Search page's pure rules: its filters as the URL holds them (`?q=&category=&min_price=&max_price=&
 * buy_now=1&status=&sort=`), the query they ask the server, the count line, and what a card's price says.
 */
import { LOT_SORTS, SEARCH_QUERY_MAX, SEARCH_TOTAL_MAX, type LotCard, type LotSort } from '@auction/shared';
import { formatRupees } from '../../lib/format';

export interface SearchFilters {
  q: string;
  /** A category's slug (or id), '' for every category. */
  category: string;
  /** Rupees as typed, '' for no bound. */
  min_price: string;
  max_price: string;
  buy_now: boolean;
  status: 'open' | 'ended';
  /** null: the server's default (relevance with words, else ending soonest). */
  sort: LotSort | null;
}

/** What the server takes as an amount in rupees (at most two decimals). */
const PRICE = /^[0-9]{1,10}(?:\.[0-9]{1,2})?$/;

export function isPrice(text: string): boolean {
  return PRICE.test(text);
}

function readPrice(value: string | null): string {
  const text = (value ?? '').trim();
  return isPrice(text) ? text : '';
}

/** The filters a URL asks for; anything the server would refuse is left out. */
export function readFilters(params: URLSearchParams): SearchFilters {
  const sort = params.get('sort');
  return {
    q: (params.get('q') ?? '').slice(0, SEARCH_QUERY_MAX),
    category: (params.get('category') ?? '').trim().slice(0, 60),
    min_price: readPrice(params.get('min_price')),
    max_price: readPrice(params.get('max_price')),
    buy_now: params.get('buy_now') === '1',
    status: params.get('status') === 'ended' ? 'ended' : 'open',
    sort: (LOT_SORTS as readonly string[]).includes(sort ?? '') ? (sort as LotSort) : null,
  };
}

/** The URL of these filters (defaults left out, so a plain search is `?q=lamp`). */
export function filtersToParams(f: SearchFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set('q', f.q.trim());
  if (f.category) params.set('category', f.category);
  if (f.min_price) params.set('min_price', f.min_price);
  if (f.max_price) params.set('max_price', f.max_price);
  if (f.buy_now) params.set('buy_now', '1');
  if (f.status !== 'open') params.set('status', f.status);
  if (f.sort) params.set('sort', f.sort);
  return params;
}

/** The query string the server is asked (relevance without words would be refused meaning: the default instead). */
export function filtersToQuery(f: SearchFilters): Record<string, string> {
  const query = Object.fromEntries(filtersToParams(f));
  if (query.sort === 'relevance' && !query.q) delete query.sort;
  return query;
}

/** Whether anything but the words narrows the search. */
export function hasFilters(f: SearchFilters): boolean {
  return f.category !== '' || f.min_price !== '' || f.max_price !== '' || f.buy_now || f.status !== 'open';
}

/** "1 lot", "24 lots", "1,000+ lots" (the server counts up to 1,000). */
export function countText(total: number): string {
  if (total > SEARCH_TOTAL_MAX) return `${SEARCH_TOTAL_MAX.toLocaleString('en-IN')}+ lots`;
  return `${total.toLocaleString('en-IN')} ${total === 1 ? 'lot' : 'lots'}`;
}

export const SORT_LABELS: Record<LotSort, string> = {
  relevance: 'Best match',
  ending: 'Ending soonest',
  price_asc: 'Price: low to high',
  price_desc: 'Price: high to low',
  bids: 'Most bids',
};

/** A sort as the form names it: among ended lots, `ending` puts the most recently ended first. */
export function sortLabel(sort: LotSort, status: SearchFilters['status']): string {
  return sort === 'ending' && status === 'ended' ? 'Most recently ended' : SORT_LABELS[sort];
}

/** A card as shown: what the server sent, kept current by live events. */
export interface ShownLot extends LotCard {
  /** The lot's version as of the last live event applied (unknown until one arrives). */
  version?: number;
  /** Sold while shown. */
  sold?: boolean;
  /** The buy-now price the server listed, kept while live news hides it (a cancelled bid may bring it back). */
  listed_buy_now?: number | null;
}

/** The price a card shows: its highest bid, or before any bid the bid it starts at. */
export function priceOf(lot: Pick<ShownLot, 'highest_bid' | 'min_next_bid' | 'sold'>): { label: 'Highest bid' | 'Starting bid' | 'Sold for'; amount: number } {
  if (lot.sold) return { label: 'Sold for', amount: lot.highest_bid };
  return lot.highest_bid > 0 ? { label: 'Highest bid', amount: lot.highest_bid } : { label: 'Starting bid', amount: lot.min_next_bid };
}

export function bidCountText(count: number): string {
  return count === 1 ? '1 bid' : `${count.toLocaleString('en-IN')} bids`;
}

/** "Lot 12", or null for a lot with no number. */
export function lotLabel(lot: Pick<LotCard, 'lot_number'>): string | null {
  return lot.lot_number === null ? null : `Lot ${lot.lot_number}`;
}

/** What was searched, in words: “lamp” in Lighting, ₹100 to ₹500, Buy now only, ended. */
export function describeSearch(f: SearchFilters, categoryName: string | undefined): string {
  const parts: string[] = [];
  if (f.q.trim()) parts.push(`“${f.q.trim()}”`);
  if (f.category) parts.push(`in ${categoryName ?? f.category}`);
  if (f.min_price && f.max_price) parts.push(`from ${formatRupees(Number(f.min_price))} to ${formatRupees(Number(f.max_price))}`);
  else if (f.min_price) parts.push(`from ${formatRupees(Number(f.min_price))}`);
  else if (f.max_price) parts.push(`up to ${formatRupees(Number(f.max_price))}`);
  if (f.buy_now) parts.push('with Buy now');
  if (f.status === 'ended') parts.push('that have ended');
  return parts.join(', ');
}
