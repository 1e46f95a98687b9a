/**
 * The auction detail page's data and the pure reducer that folds the admin room's live events into
 * it (docs/live-protocol.md): products with their highest bid and bid count, and the bid feed, newest first.
 */
import type { AdminAuction, Product } from '@auction/shared';
import type { LiveEvent } from '../../live';
import type { ProductBid } from '@auction/shared';

export interface FeedEntry {
  bid_id: number;
  product_id: string;
  amount: number;
  /** The username for the auction's creator, masked (a***e) for any other admin. */
  bidder: string;
  timestamp: string;
  status: string;
}

export interface DetailData {
  auction: AdminAuction;
  products: Product[];
  feed: FeedEntry[];
}

export type DetailAction =
  | { type: 'loaded'; data: DetailData }
  | { type: 'auction'; auction: AdminAuction }
  | { type: 'bids'; productId: string; bids: FeedEntry[] }
  | { type: 'live'; event: LiveEvent };

const newestFirst = (a: FeedEntry, b: FeedEntry) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.bid_id - a.bid_id;

/** The bids of one product in this auction as feed entries (failed attempts are not bids in the feed). */
export function toFeed(productId: string, auctionId: string, bids: readonly ProductBid[]): FeedEntry[] {
  return bids
    .filter((b) => b.auction_id === auctionId && b.status !== 'failed')
    .map((b) => ({ bid_id: b.bid_id, product_id: productId, amount: b.amount, bidder: b.bidder, timestamp: b.timestamp, status: b.status }));
}

/** Several products' bids as one feed, newest first, each bid once. */
export function mergeFeeds(...lists: readonly (readonly FeedEntry[])[]): FeedEntry[] {
  const byId = new Map<number, FeedEntry>();
  for (const list of lists) for (const e of list) byId.set(e.bid_id, e);
  return [...byId.values()].sort(newestFirst);
}

/** Product events may arrive out of order (docs/live-protocol.md#versions-and-applying-events): one no newer than the version shown is stale. */
function isStale(products: readonly Product[], productId: string, version: number): boolean {
  const current = products.find((p) => p.id === productId);
  return current !== undefined && version <= current.version;
}

function patchProduct(products: Product[], productId: string, patch: Partial<Product>): Product[] {
  const i = products.findIndex((p) => p.id === productId);
  const current = products[i];
  if (!current) return products;
  const next = products.slice();
  next[i] = { ...current, ...patch };
  return next;
}

/** Puts an entry where newest-first order places it, leaving the others as they are. */
function insertEntry(feed: readonly FeedEntry[], entry: FeedEntry): FeedEntry[] {
  const at = feed.findIndex((f) => newestFirst(entry, f) < 0);
  return at < 0 ? [...feed, entry] : [...feed.slice(0, at), entry, ...feed.slice(at)];
}

function endAuction(data: DetailData, status: 'ended' | 'settled'): DetailData {
  if (data.auction.status === 'settled' || data.auction.status === status) return data;
  return { ...data, auction: { ...data.auction, status } };
}

/** Folds one live event into the page. Events of other auctions return the same object. */
export function applyDetailEvent(data: DetailData, e: LiveEvent): DetailData {
  if (!('auction_id' in e.data) || e.data.auction_id !== data.auction.id) return data;
  switch (e.event) {
    case 'bid:placed': {
      const d = e.data;
      if (data.feed.some((f) => f.bid_id === d.bid_id)) return data;
      const entry: FeedEntry = { bid_id: d.bid_id, product_id: d.product_id, amount: d.amount, bidder: d.bidder, timestamp: d.timestamp, status: 'success' };
      // Rule: every new bid joins the feed, but a stale one (version not newer) moves neither the product's numbers nor its lead.
      if (isStale(data.products, d.product_id, d.version)) {
        const product = data.products.find((p) => p.id === d.product_id);
        const status = product?.highest_bid !== d.amount ? 'outbid' : product.status === 'sold' ? 'won' : 'success';
        return { ...data, feed: insertEntry(data.feed, { ...entry, status }) };
      }
      // The new bid leads; whoever led that product before was outbid.
      const earlier = data.feed.map((f) => (f.product_id === d.product_id && f.status === 'success' ? { ...f, status: 'outbid' } : f));
      return {
        ...data,
        products: patchProduct(data.products, d.product_id, { highest_bid: d.highest_bid, bid_count: d.bid_count, version: d.version }),
        feed: [entry, ...earlier],
      };
    }
    case 'bid:rolledback': {
      const d = e.data;
      if (isStale(data.products, d.product_id, d.version)) return data;
      return { ...data, products: patchProduct(data.products, d.product_id, { highest_bid: d.highest_bid, bid_count: d.bid_count, version: d.version }) };
    }
    case 'product:sold': {
      const d = e.data;
      if (isStale(data.products, d.product_id, d.version)) return data;
      return {
        ...data,
        products: patchProduct(data.products, d.product_id, { status: 'sold', highest_bid: d.amount, version: d.version }),
        feed: data.feed.map((f) => (f.product_id === d.product_id && f.status === 'success' ? { ...f, status: 'won' } : f)),
      };
    }
    case 'auction:ended':
      return endAuction(data, 'ended');
    case 'auction:settled':
      return endAuction(data, 'settled');
    default:
      return data;
  }
}

export function detailReducer(state: DetailData | null, action: DetailAction): DetailData | null {
  switch (action.type) {
    case 'loaded':
      return action.data;
    case 'auction':
      return state && { ...state, auction: action.auction };
    case 'bids':
      return state && { ...state, feed: mergeFeeds(state.feed.filter((f) => f.product_id !== action.productId), action.bids) };
    case 'live':
      return state && applyDetailEvent(state, action.event);
  }
}
