/**
 * Pure reducers that fold live events (docs/live-protocol.md) into the bidder's view of auctions and products.
 * They return the same object when an event changes nothing, so subscribers do not re-render; a product
 * event whose version is not newer than the product's shown version is such an event.
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

function patchProduct(data: AuctionsData, auctionId: string, productId: string, patch: ProductPatch): AuctionsData {
  const list = data.products[auctionId];
  if (!list) return data;
  const index = list.findIndex((p) => p.id === productId);
  const current = list[index];
  if (!current) return data;
  // Events may arrive out of order (docs/live-protocol.md#versions-and-applying-events): one no newer than the version shown changes nothing.
  if (patch.version <= current.version) return data;
  const next = list.slice();
  next[index] = { ...current, ...patch };
  return { ...data, products: { ...data.products, [auctionId]: next } };
}

/** An auction stops at the moment the server said so, even if it was settled early. */
function endAuction(data: AuctionsData, auctionId: string, status: 'ended' | 'settled', serverTime: string): AuctionsData {
  const index = data.auctions.findIndex((a) => a.id === auctionId);
  const current = data.auctions[index];
  if (!current) return data;
  const nextStatus = current.status === 'settled' ? 'settled' : status;
  const endsAt = Date.parse(serverTime);
  const validUntil = Number.isFinite(endsAt) && endsAt < Date.parse(current.valid_until) ? new Date(endsAt).toISOString() : current.valid_until;
  if (nextStatus === current.status && validUntil === current.valid_until) return data;
  const auctions = data.auctions.slice();
  auctions[index] = { ...current, status: nextStatus, valid_until: validUntil };
  return { ...data, auctions };
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

function removeAuction(data: AuctionsData, auctionId: string): AuctionsData {
  if (!data.auctions.some((a) => a.id === auctionId) && !(auctionId in data.products)) return data;
  const products = { ...data.products };
  delete products[auctionId];
  return { auctions: data.auctions.filter((a) => a.id !== auctionId), products };
}

export function applyLiveEvent(data: AuctionsData, e: LiveEvent): AuctionsData {
  switch (e.event) {
    case 'bid:placed':
    case 'bid:rolledback':
      return patchProduct(data, e.data.auction_id, e.data.product_id, { highest_bid: e.data.highest_bid, bid_count: e.data.bid_count, version: e.data.version });
    case 'product:sold':
      return patchProduct(data, e.data.auction_id, e.data.product_id, { status: 'sold', highest_bid: e.data.amount, version: e.data.version });
    case 'auction:ended':
      return endAuction(data, e.data.auction_id, 'ended', e.data.server_time);
    case 'auction:settled':
      return endAuction(data, e.data.auction_id, 'settled', e.data.server_time);
    case 'auction:created':
    case 'auction:updated':
      return { ...data, auctions: upsertAuction(data.auctions, e.data) };
    case 'auction:deleted':
      return removeAuction(data, e.data.id);
    default:
      return data;
  }
}
