/**
 * Pure reducers that fold live events (docs/live-protocol.md) into the bidder's view of auctions and products.
 * `applyToAuctions` folds an event into the list, `applyToProducts` into one auction's products (the
 * catalogue's two queries), `applyLiveEvent` into both at once. They return the same object when an event
 * changes nothing, so subscribers do not re-render; a product event whose version is not newer than the
 * product's shown version is such an event. Personal events (outbid, reinstated, won) carry no version:
 * they set the caller's own standing on the lot (`my_status`, `my_max`) whatever its version.
 */
import type { Auction, LiveAuction, Product } from '@auction/shared';
import { isLiveEvent, type LiveEvent } from '../live';

export interface AuctionsData {
  auctions: Auction[];
  /** Products by auction id, for the auctions whose products have been loaded. */
  products: Record<string, Product[]>;
}

/** A product change from a live event, stamped with the product's version after it. */
type ProductPatch = Partial<Product> & Pick<Product, 'version'>;

/** Applies `patch` (or what `patchOf` makes of the product shown) to one product if it is newer. */
function patchProduct<P extends Product>(list: P[], productId: string, patch: ProductPatch | ((p: P) => ProductPatch)): P[] {
  const index = list.findIndex((p) => p.id === productId);
  const current = list[index];
  if (!current) return list;
  const change = typeof patch === 'function' ? patch(current) : patch;
  // Events may arrive out of order (docs/live-protocol.md#versions-and-applying-events): one no newer than the version shown changes nothing.
  if (change.version <= current.version) return list;
  const next = list.slice();
  next[index] = { ...current, ...change };
  return next;
}

/** The caller's own standing on one product (personal events carry no version: they always apply). */
function setStanding<P extends Product>(list: P[], productId: string, my_status: Product['my_status'], my_max: number | null): P[] {
  const index = list.findIndex((p) => p.id === productId);
  const current = list[index];
  if (!current || (current.my_status === my_status && current.my_max === my_max)) return list;
  const next = list.slice();
  next[index] = { ...current, my_status, my_max };
  return next;
}

/** A buy-now price is shown only while the lot can still be bought at it (a price once hidden comes back with a re-read). */
const buyNow = (p: Product, available: boolean) => (available ? p.buy_now_price : null);

/** An auction stops at the moment the server said so, even if it was settled early. */
function endAuction(auctions: Auction[], auctionId: string, status: 'ended' | 'settled', serverTime: string): Auction[] {
  const index = auctions.findIndex((a) => a.id === auctionId);
  const current = auctions[index];
  if (!current) return auctions;
  const nextStatus = current.status === 'settled' ? 'settled' : status;
  const endsAt = Date.parse(serverTime);
  const validUntil = Number.isFinite(endsAt) && endsAt < Date.parse(current.valid_until) ? new Date(endsAt).toISOString() : current.valid_until;
  if (nextStatus === current.status && validUntil === current.valid_until) return auctions;
  const next = auctions.slice();
  next[index] = { ...current, status: nextStatus, valid_until: validUntil };
  return next;
}

/**
 * Adds or replaces an auction from a catalogue event. Live payloads carry no per-caller fields and no
 * product list, so the caller's own `registered`, `registrations` and the ids last read are kept (the
 * store reads the products again); a new auction goes first (the list is newest first).
 */
export function upsertAuction(auctions: Auction[], live: LiveAuction): Auction[] {
  const {
    id, name, valid_until, product_count, status, original_valid_until, increment_rule, increment_amount, increment_tiers, cancel_policy, soft_close_s, max_extension_s, extended,
  } = live;
  const summary = {
    id, name, valid_until, product_count, status, original_valid_until, increment_rule, increment_amount, increment_tiers, cancel_policy, soft_close_s, max_extension_s, extended,
  };
  const index = auctions.findIndex((a) => a.id === id);
  const current = auctions[index];
  if (!current) return [{ ...summary, product_ids: [], registered: false, registrations: [], highest_bid: 0, bid_count: 0, cover: null }, ...auctions];
  const next = auctions.slice();
  next[index] = { ...current, ...summary };
  return next;
}

/**
 * Soft close moved an auction's end (the room event, or the catalogue event with the whole summary).
 * An end only moves later this way: an extension older than the end shown changes nothing.
 */
function extendAuction(auctions: Auction[], e: { auction_id: string; valid_until: string; original_valid_until: string }): Auction[] {
  const index = auctions.findIndex((a) => a.id === e.auction_id);
  const current = auctions[index];
  if (!current) return auctions;
  if (Date.parse(e.valid_until) <= Date.parse(current.valid_until)) {
    return current.extended ? auctions : replaceAt(auctions, index, { ...current, extended: true });
  }
  return replaceAt(auctions, index, { ...current, valid_until: e.valid_until, original_valid_until: e.original_valid_until, extended: true });
}

function replaceAt<T>(list: T[], index: number, item: T): T[] {
  const next = list.slice();
  next[index] = item;
  return next;
}

/** The events that change an auction's products (a bid, a rollback, a sale) or the caller's standing on one. */
export const PRODUCT_EVENTS = ['bid:placed', 'bid:rolledback', 'product:sold', 'bid:outbid', 'bid:reinstated', 'bid:won'] as const;
export type ProductEvent = LiveEvent<(typeof PRODUCT_EVENTS)[number]>;

/** The events that change the auction list (an end moved or reached, a summary added, edited or deleted). */
export const AUCTION_LIST_EVENTS = ['auction:ended', 'auction:settled', 'auction:created', 'auction:updated', 'auction:extended', 'auction:deleted'] as const;
export type AuctionListEvent = LiveEvent<(typeof AUCTION_LIST_EVENTS)[number]>;

/** The auction whose products an event changes (a bid, a rollback, a sale), if any. */
export function productsAuctionOf(e: LiveEvent): string | undefined {
  return isLiveEvent(e, PRODUCT_EVENTS) ? e.data.auction_id : undefined;
}

/** A catalogue summary adds an auction this tab does not list yet; a known one only moves its end (`extendAuction`). */
function upsertAuctionIfNew(auctions: Auction[], live: LiveAuction): Auction[] {
  return auctions.some((a) => a.id === live.id) ? auctions : upsertAuction(auctions, live);
}

/** One event folded into the auction list. */
export function applyToAuctions(auctions: Auction[], e: AuctionListEvent): Auction[] {
  switch (e.event) {
    case 'auction:ended':
      return endAuction(auctions, e.data.auction_id, 'ended', e.data.server_time);
    case 'auction:settled':
      return endAuction(auctions, e.data.auction_id, 'settled', e.data.server_time);
    case 'auction:created':
    case 'auction:updated':
      return upsertAuction(auctions, e.data);
    case 'auction:extended':
      // The catalogue event carries the whole summary (and reaches tabs that never saw the auction).
      return extendAuction('name' in e.data ? upsertAuctionIfNew(auctions, e.data) : auctions, e.data);
    case 'auction:deleted':
      return auctions.some((a) => a.id === e.data.id) ? auctions.filter((a) => a.id !== e.data.id) : auctions;
  }
}

/** One event folded into the products of auction `auctionId` (events of other auctions change nothing); any list of product shapes. */
export function applyToProducts<P extends Product>(auctionId: string, products: P[], e: ProductEvent): P[] {
  if (e.data.auction_id !== auctionId) return products;
  switch (e.event) {
    case 'bid:placed':
    case 'bid:rolledback': {
      const d = e.data;
      return patchProduct(products, d.product_id, (p) => ({
        highest_bid: d.highest_bid, bid_count: d.bid_count, version: d.version,
        min_next_bid: d.min_next_bid, reserve_met: d.reserve_met, buy_now_price: buyNow(p, d.buy_now_available),
      }));
    }
    case 'product:sold': {
      const d = e.data;
      // Sold at the end: the leader won it. Bought now: every bidder lost it, the buyer excepted, who hears
      // `bid:won` (personal events may come before or after the frame: a win is never undone here).
      return patchProduct(products, d.product_id, (p) => ({
        status: 'sold', highest_bid: d.amount, version: d.version, buy_now_price: null,
        ...(p.my_status === 'outbid' || (p.my_status === 'leading' && d.buy_now) ? { my_status: 'lost' as const, my_max: null } : {}),
        ...(p.my_status === 'leading' && !d.buy_now ? { my_status: 'won' as const, my_max: null } : {}),
      }));
    }
    case 'bid:outbid': {
      // Outbid by a buy-now purchase: the lot is gone.
      const sold = products.find((p) => p.id === e.data.product_id)?.status === 'sold';
      return setStanding(products, e.data.product_id, sold ? 'lost' : 'outbid', null);
    }
    case 'bid:reinstated': {
      const current = products.find((p) => p.id === e.data.product_id);
      return setStanding(products, e.data.product_id, 'leading', current?.my_status === 'leading' ? current.my_max : null);
    }
    case 'bid:won':
      return setStanding(products, e.data.product_id, 'won', null);
  }
}

/**
 * Whether an event leaves what is shown short of something only a read can give: a lot whose buy-now
 * price came back (a rollback) after this tab had hidden it.
 */
export function needsProductsRead(products: Product[], e: LiveEvent): boolean {
  if (e.event !== 'bid:placed' && e.event !== 'bid:rolledback') return false;
  const { product_id, buy_now_available } = e.data;
  return buy_now_available && products.some((p) => p.id === product_id && p.buy_now_price === null);
}

/** One event folded into the list and the products loaded (a deleted auction's products go with it). */
export function applyLiveEvent(data: AuctionsData, e: LiveEvent): AuctionsData {
  const auctions = isLiveEvent(e, AUCTION_LIST_EVENTS) ? applyToAuctions(data.auctions, e) : data.auctions;
  let products = data.products;
  if (isLiveEvent(e, PRODUCT_EVENTS)) {
    const auctionId = e.data.auction_id;
    const list = products[auctionId];
    if (list) {
      const next = applyToProducts(auctionId, list, e);
      if (next !== list) products = { ...products, [auctionId]: next };
    }
  }
  if (e.event === 'auction:deleted' && e.data.id in products) {
    products = { ...products };
    delete products[e.data.id];
  }
  return auctions === data.auctions && products === data.products ? data : { auctions, products };
}
