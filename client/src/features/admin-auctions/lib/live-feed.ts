/**
 * The auction detail page's data and the pure reducer that folds the admin room's live events into
 * it (docs/live-protocol.md): products with their highest bid, bid count and pricing state, the bid feed
 * (newest first) and the lots bought at their buy-now price. Every automatic raise of a maximum bid
 * (`bid:placed` with `auto`) is a row of its own at its own time, and a lot's history as read lists
 * them too, so a page read again shows the rows it showed; a lot's rows that carry a version are
 * ordered by it (docs/live-protocol.md#versions-and-applying-events).
 */
import type { AdminAuction, LotHistoryEntry, Product, Settled } from '@auction/shared';
import { isLiveEvent, type LiveEvent } from '../../../lib/live';

export interface FeedEntry {
  /**
   * One row of the feed: `b<bid id>` for a bid; for an automatic raise of it `a<bid id>@<version>` when
   * it came live, `a<bid id>@₹<amount>` when read (the history names no version). One raise of a bid is
   * one amount: `rowId` is the same for both.
   */
  key: string;
  bid_id: number;
  product_id: string;
  amount: number;
  /** The username for the auction's creator, masked (a***e) for any other admin. */
  bidder: string;
  timestamp: string;
  /** The bid's full status (`state` on the wire; docs/money.md#bid-statuses). */
  state: string;
  /** An automatic raise of the leader's maximum bid (live `bid:placed`, or an `auto` entry of the history read). */
  auto?: boolean;
  /** The lot's version after this change, for rows that came live. */
  version?: number;
  /** Bought at the buy-now price. */
  buy_now?: boolean;
}

export interface DetailData {
  auction: AdminAuction;
  products: Product[];
  feed: FeedEntry[];
  /** Ids of the lots bought at their buy-now price, as far as this page knows. */
  boughtNow: readonly string[];
}

export type DetailAction =
  | { type: 'loaded'; data: DetailData }
  | { type: 'auction'; auction: AdminAuction }
  | { type: 'bids'; productId: string; bids: FeedEntry[] }
  | { type: 'products'; products: Product[] }
  | { type: 'settled'; answer: Settled; auction: AdminAuction | null }
  | { type: 'live'; event: LiveEvent };

/**
 * An entry of a lot's history as read (`GET /products/{id}/bids`: bids and automatic raises); entries
 * that name their auction are kept only for this one, and a bought-now bid may say so (`buy_now`).
 */
export type ListedBid = Pick<LotHistoryEntry, 'bid_id' | 'amount' | 'state' | 'timestamp' | 'bidder'>
  & { auto?: boolean; auction_id?: string; buy_now?: boolean };

/**
 * Newest first: two rows of one lot that both know their version by version (the order the lot's
 * changes committed in, whatever the clocks say), others by time; at one moment, on one lot the
 * higher amount (a lot's price only rises: a raise read back, which names no version, stays above the
 * raises before it), then the later version, then an automatic raise after the bid it answered, then
 * the higher bid id.
 */
function newestFirst(a: FeedEntry, b: FeedEntry): number {
  if (a.product_id === b.product_id && a.version !== undefined && b.version !== undefined && a.version !== b.version) return b.version - a.version;
  return Date.parse(b.timestamp) - Date.parse(a.timestamp) || (a.product_id === b.product_id ? b.amount - a.amount : 0)
    || (b.version ?? -1) - (a.version ?? -1) || Number(b.auto === true) - Number(a.auto === true) || b.bid_id - a.bid_id;
}

const bidKey = (bidId: number) => `b${bidId}`;

/** Which row an entry is, however it came (live or read): a bid by its id, an automatic raise by its bid and amount. */
export function rowId(e: Pick<FeedEntry, 'key' | 'bid_id' | 'amount' | 'auto'>): string {
  return e.auto ? `a${e.bid_id}@₹${Math.round(e.amount * 100) / 100}` : e.key;
}

/** One product's history in this auction as feed entries, its automatic raises included (failed attempts are not bids in the feed). */
export function toFeed(productId: string, auctionId: string, bids: readonly ListedBid[]): FeedEntry[] {
  return bids
    .filter((b) => (b.auction_id === undefined || b.auction_id === auctionId) && b.state !== 'failed')
    .map((b) => {
      const entry: FeedEntry = {
        key: bidKey(b.bid_id), bid_id: b.bid_id, product_id: productId, amount: b.amount, bidder: b.bidder, timestamp: b.timestamp, state: b.state,
        ...(b.auto ? { auto: true } : {}),
        ...(b.buy_now ? { buy_now: true } : {}),
      };
      return b.auto ? { ...entry, key: rowId(entry) } : entry;
    });
}

/** Several products' entries as one feed, newest first, each row once (a row seen live keeps its version). */
export function mergeFeeds(...lists: readonly (readonly FeedEntry[])[]): FeedEntry[] {
  const byRow = new Map<string, FeedEntry>();
  for (const list of lists) {
    for (const e of list) {
      const id = rowId(e);
      const seen = byRow.get(id);
      byRow.set(id, seen?.version !== undefined && e.version === undefined ? { ...e, key: seen.key, version: seen.version } : e);
    }
  }
  return [...byRow.values()].sort(newestFirst);
}

/**
 * The lots bought at their buy-now price in a freshly read page: a won bid marked so, or a lot sold
 * while its auction is still unsettled (only a buy-now sells before the settle).
 */
export function boughtNowOf(auction: AdminAuction, products: readonly Product[], feed: readonly FeedEntry[]): string[] {
  const ids = new Set(feed.filter((f) => f.buy_now).map((f) => f.product_id));
  if (auction.status !== 'settled' && auction.settled_at === null) for (const p of products) if (p.status === 'sold') ids.add(p.id);
  return [...ids];
}

/**
 * Who won a lot: the product's `winner` as the server read it (sold lots, for their owner), else the
 * bidder of the won bid in the feed (a lot sold since the page read its products).
 */
export function winnerOf(feed: readonly FeedEntry[], productId: string, products: readonly Product[] = []): string | undefined {
  const winner = products.find((p) => p.id === productId)?.winner;
  if (winner) return winner;
  return feed.find((f) => f.product_id === productId && f.state === 'won')?.bidder;
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

/** A lot's buy-now price while it can still be bought that way (the live events say whether it can). */
function buyNowPrice(products: readonly Product[], productId: string, available: boolean): number | null {
  return available ? (products.find((p) => p.id === productId)?.buy_now_price ?? null) : null;
}

/** Puts an entry where newest-first order places it, leaving the others as they are. */
function insertEntry(feed: readonly FeedEntry[], entry: FeedEntry): FeedEntry[] {
  const at = feed.findIndex((f) => newestFirst(entry, f) < 0);
  return at < 0 ? [...feed, entry] : [...feed.slice(0, at), entry, ...feed.slice(at)];
}

/** The leading bid of `productId` (state success; all its rows, its automatic raises too) takes `state`; `except` keeps one bid's rows as they are. */
const leadBecomes = (feed: readonly FeedEntry[], productId: string, state: string, except?: number) =>
  feed.map((f) => (f.product_id === productId && f.state === 'success' && f.bid_id !== except ? { ...f, state } : f));

function endAuction(data: DetailData, status: 'ended' | 'settled'): DetailData {
  if (data.auction.status === 'settled' || data.auction.status === status) return data;
  return { ...data, auction: { ...data.auction, status } };
}

/**
 * The events this page's data holds. Not the others: the countdown is the page's own clock, watcher
 * counts live in the live store, and personal and catalogue events are about a bidder or the auction list.
 */
export const DETAIL_EVENTS = ['bid:placed', 'bid:rolledback', 'product:sold', 'auction:extended', 'auction:ended', 'auction:settled'] as const;

/** Folds one live event into the page. Events of other auctions, and those the page does not hold, return the same object. */
export function applyDetailEvent(data: DetailData, e: LiveEvent): DetailData {
  if (!isLiveEvent(e, DETAIL_EVENTS) || e.data.auction_id !== data.auction.id) return data;
  switch (e.event) {
    case 'bid:placed': {
      const d = e.data;
      // A bid is one row; each automatic raise of it is another row, one per version.
      const key = d.auto ? `a${d.bid_id}@${d.version}` : bidKey(d.bid_id);
      const entry: FeedEntry = {
        key, bid_id: d.bid_id, product_id: d.product_id, amount: d.amount, bidder: d.bidder, timestamp: d.timestamp, state: 'success', version: d.version,
        ...(d.auto ? { auto: true } : {}),
      };
      // Already shown: live, or in the history read (a raise read there has no version but the same bid and amount).
      const id = rowId(entry);
      if (data.feed.some((f) => f.key === key || rowId(f) === id)) return data;
      // Rule: every new bid joins the feed, but a stale one (version not newer) moves neither the product's numbers nor its lead.
      if (isStale(data.products, d.product_id, d.version)) {
        const product = data.products.find((p) => p.id === d.product_id);
        // A late raise takes the state its bid's other rows show; a late bid is outbid unless it is what the lot shows.
        const same = data.feed.find((f) => f.bid_id === d.bid_id);
        const state = same ? same.state : product?.highest_bid !== d.amount ? 'outbid' : product.status === 'sold' ? 'won' : 'success';
        return { ...data, feed: insertEntry(data.feed, { ...entry, state }) };
      }
      // The new bid leads; whoever led that product before was outbid (a raise leaves its own bid's rows leading).
      return {
        ...data,
        products: patchProduct(data.products, d.product_id, {
          highest_bid: d.highest_bid, bid_count: d.bid_count, version: d.version, min_next_bid: d.min_next_bid, reserve_met: d.reserve_met,
          buy_now_price: buyNowPrice(data.products, d.product_id, d.buy_now_available),
        }),
        feed: insertEntry(leadBecomes(data.feed, d.product_id, 'outbid', d.bid_id), entry),
      };
    }
    case 'bid:rolledback': {
      const d = e.data;
      if (isStale(data.products, d.product_id, d.version)) return data;
      return {
        ...data,
        products: patchProduct(data.products, d.product_id, {
          highest_bid: d.highest_bid, bid_count: d.bid_count, version: d.version, min_next_bid: d.min_next_bid, reserve_met: d.reserve_met,
          buy_now_price: buyNowPrice(data.products, d.product_id, d.buy_now_available),
        }),
      };
    }
    case 'product:sold': {
      const d = e.data;
      if (isStale(data.products, d.product_id, d.version)) return data;
      const products = patchProduct(data.products, d.product_id, { status: 'sold', highest_bid: d.amount, version: d.version, buy_now_price: null });
      // At the close the leading bid wins; a buy-now is a new bid of its own (read with the product's bids), and the lead it beat is outbid.
      if (!d.buy_now) return { ...data, products, feed: leadBecomes(data.feed, d.product_id, 'won') };
      return {
        ...data,
        products,
        feed: leadBecomes(data.feed, d.product_id, 'outbid'),
        boughtNow: data.boughtNow.includes(d.product_id) ? data.boughtNow : [...data.boughtNow, d.product_id],
      };
    }
    case 'auction:extended': {
      const d = e.data;
      if (data.auction.valid_until === d.valid_until && data.auction.extended) return data;
      return { ...data, auction: { ...data.auction, valid_until: d.valid_until, original_valid_until: d.original_valid_until, extended: true } };
    }
    case 'auction:ended':
      return endAuction(data, 'ended');
    case 'auction:settled':
      return endAuction(data, 'settled');
  }
}

/** The settle answer folded in: sold lots and their winning bids, unsold ones' leading bids (below the reserve) refunded. */
function applySettlement(data: DetailData, answer: Settled, auction: AdminAuction | null): DetailData {
  let { products, feed } = data;
  for (const s of answer.sold) {
    const p = products.find((x) => x.id === s.product_id);
    if (p && p.status !== 'sold') products = patchProduct(products, s.product_id, { status: 'sold', highest_bid: s.amount, buy_now_price: null });
    feed = leadBecomes(feed, s.product_id, 'won');
  }
  for (const u of answer.unsold) if (u.reason === 'RESERVE_NOT_MET') feed = leadBecomes(feed, u.id, 'unsold');
  const base = auction ?? data.auction;
  return { ...data, auction: { ...base, status: 'settled' }, products, feed };
}

export function detailReducer(state: DetailData | null, action: DetailAction): DetailData | null {
  switch (action.type) {
    case 'loaded':
      return action.data;
    case 'auction':
      return state && { ...state, auction: action.auction };
    case 'bids': {
      if (!state) return null;
      // A re-read lists the bids and their automatic raises: a raise seen live that the read does not list yet stays, taking its bid's state as read.
      const bids = action.bids;
      const read = new Set(bids.map(rowId));
      const stateOf = new Map(bids.filter((b) => !b.auto).map((b) => [b.bid_id, b.state]));
      const shown = state.feed.filter((f) => f.product_id === action.productId);
      // The rows read keep the key and version they were shown with (their order), taking the state read.
      const known = shown.filter((f) => read.has(rowId(f)));
      const raises = shown.filter((f) => f.auto && !read.has(rowId(f))).map((f) => ({ ...f, state: stateOf.get(f.bid_id) ?? f.state }));
      const boughtNow = bids.some((b) => b.buy_now) && !state.boughtNow.includes(action.productId) ? [...state.boughtNow, action.productId] : state.boughtNow;
      return { ...state, boughtNow, feed: mergeFeeds(state.feed.filter((f) => f.product_id !== action.productId), known, bids, raises) };
    }
    case 'products': {
      if (!state) return null;
      // Products read again (after a sale or the settlement): a newer version replaces the lot shown; otherwise only its winner is taken.
      const fresh = new Map(action.products.map((p) => [p.id, p]));
      const products = state.products.map((p) => {
        const read = fresh.get(p.id);
        if (!read) return p;
        if (read.version > p.version) return read;
        return read.winner ? { ...p, winner: read.winner } : p;
      });
      return { ...state, products };
    }
    case 'settled':
      return state && applySettlement(state, action.answer, action.auction);
    case 'live':
      return state && applyDetailEvent(state, action.event);
  }
}
