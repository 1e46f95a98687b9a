/**
 * Pure reducers that fold live events (docs/live-protocol.md) into the bidder's view of auctions and products.
 * `applyToAuctions` folds an event into the list, `applyToProducts` into one auction's products (the
 * store's two resources), `applyLiveEvent` into both at once. They return the same object when an event
 * changes nothing, so subscribers do not re-render; a product event whose version is not newer than the
 * product's shown version is such an event.
 */
import type { Auction, LiveAuction, Product } from '@auction/shared';
import type { LiveEvent } from '../../live';

export interface AuctionsData {
  auctions: Auction[];
  /** Products by auction id, for the auctions whose products have been loaded. */
  products: Record<string, Product[]>;
}

/** A product change from a live event, stamped with the product's version after it. */
type ProductPatch = Partial<Product> & Pick<Product, 'version'>;

function patchProduct(list: Product[], productId: string, patch: ProductPatch): Product[] {
  const index = list.findIndex((p) => p.id === productId);
  const current = list[index];
  if (!current) return list;
  // Events may arrive out of order (docs/live-protocol.md#versions-and-applying-events): one no newer than the version shown changes nothing.
  if (patch.version <= current.version) return list;
  const next = list.slice();
  next[index] = { ...current, ...patch };
  return next;
}

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
  const { id, name, valid_until, product_count, status } = live;
  const index = auctions.findIndex((a) => a.id === id);
  const current = auctions[index];
  if (!current) return [{ id, name, valid_until, product_ids: [], product_count, status, registered: false, registrations: [] }, ...auctions];
  const next = auctions.slice();
  next[index] = { ...current, name, valid_until, product_count, status };
  return next;
}

/** The auction whose products an event changes (a bid, a rollback, a sale), if any. */
export function productsAuctionOf(e: LiveEvent): string | undefined {
  switch (e.event) {
    case 'bid:placed':
    case 'bid:rolledback':
    case 'product:sold':
      return e.data.auction_id;
    default:
      return undefined;
  }
}

/** One event folded into the auction list. */
export function applyToAuctions(auctions: Auction[], e: LiveEvent): Auction[] {
  switch (e.event) {
    case 'auction:ended':
      return endAuction(auctions, e.data.auction_id, 'ended', e.data.server_time);
    case 'auction:settled':
      return endAuction(auctions, e.data.auction_id, 'settled', e.data.server_time);
    case 'auction:created':
    case 'auction:updated':
      return upsertAuction(auctions, e.data);
    case 'auction:deleted':
      return auctions.some((a) => a.id === e.data.id) ? auctions.filter((a) => a.id !== e.data.id) : auctions;
    default:
      return auctions;
  }
}

/** One event folded into the products of auction `auctionId` (events of other auctions change nothing). */
export function applyToProducts(auctionId: string, products: Product[], e: LiveEvent): Product[] {
  if (productsAuctionOf(e) !== auctionId) return products;
  switch (e.event) {
    case 'bid:placed':
    case 'bid:rolledback':
      return patchProduct(products, e.data.product_id, { highest_bid: e.data.highest_bid, bid_count: e.data.bid_count, version: e.data.version });
    case 'product:sold':
      return patchProduct(products, e.data.product_id, { status: 'sold', highest_bid: e.data.amount, version: e.data.version });
    default:
      return products;
  }
}

/** One event folded into the list and the products loaded (a deleted auction's products go with it). */
export function applyLiveEvent(data: AuctionsData, e: LiveEvent): AuctionsData {
  const auctions = applyToAuctions(data.auctions, e);
  let products = data.products;
  const auctionId = productsAuctionOf(e);
  const list = auctionId === undefined ? undefined : products[auctionId];
  if (auctionId !== undefined && list) {
    const next = applyToProducts(auctionId, list, e);
    if (next !== list) products = { ...products, [auctionId]: next };
  }
  if (e.event === 'auction:deleted' && e.data.id in products) {
    products = { ...products };
    delete products[e.data.id];
  }
  return auctions === data.auctions && products === data.products ? data : { auctions, products };
}
