/**
 * The catalogue's lots every bidder page shows, as TanStack queries: each auction's products
 * (GET /auctions/:id/products, keyed by auction id). Our pages never read the whole auction list
 * (GET /auctions, the spec's): Browse reads a page of cards at a time, the dashboard one small page,
 * My Bids and Saved what their own reads carry of each auction, a lot page its own read's auction.
 * Live events fold in through the pure reducers of `live-reducers.ts` with `patchQuery`, so an event
 * that arrives while a read is on its way applies over its reply too; product events no newer than the
 * version shown change nothing. A reconnect invalidates what is shown; a session change clears the
 * cache (lib/live-query.ts).
 *
 * The caller's own standing on a lot (`my_status`, `my_max`) comes from the products read, then from
 * the caller's own bid and buy-now answers and from their personal events (outbid, reinstated, won),
 * after which the products on screen are also read again quietly: the read has the server's word.
 */
import { create } from 'zustand';
import type { Product } from '@auction/shared';
import { toast } from '../../components/ui/toast/toast-store';
import { errorText } from '../api-client';
import { onLive, onReconnect } from '../live';
import { invalidateSoon, queryFamily } from '../live-query';
import { useServerQuery, type ServerState } from '../query';
import { queryRoots } from '../query-keys';
import { catalogueApi } from './catalogue-api';
import { applyToProducts, needsProductsRead, PRODUCT_EVENTS, type ProductEvent } from './live-reducers';

export const PRODUCTS_FAILED = 'Failed to load products';

/**
 * `auction:updated` carries no product list (a rename or a product moved in or out looks the same), so
 * the products on screen are read again, once per burst of edits.
 */
export const PRODUCTS_RELOAD_MS = 250;

/** One auction's products, by auction id. */
export const auctionProducts = queryFamily<string, Product[]>(queryRoots.auctionProducts, (auctionId) => catalogueApi.products(auctionId));

export interface AuctionReadOptions {
  /** No error toast (pages that tolerate a failed read, such as the lot page). */
  silent?: boolean;
  /** False: follow what the tab has without reading it (a piece of a page that reads it itself). */
  read?: boolean;
}

/** An auction's products for a component: read on mount (a failed read toasted unless silent), kept current live. */
export function useAuctionProducts(auctionId: string, { silent = false, read = true }: AuctionReadOptions = {}): ServerState<Product[]> {
  return useServerQuery(auctionProducts.options(auctionId), {
    enabled: read,
    onError: silent ? undefined : (err) => toast.error(errorText(err, PRODUCTS_FAILED)),
  });
}

/** The products of an auction this tab has loaded, for lookups outside React (no read). */
export function knownProducts(auctionId: string): Product[] {
  return auctionProducts.get(auctionId).data ?? [];
}

/** The products of auctions this tab shows (or is reading) are read again quietly, once per burst. */
export function rereadProducts(auctionId: string): void {
  const { data, fetching } = auctionProducts.get(auctionId);
  if (data !== undefined || fetching) invalidateSoon(queryRoots.auctionProducts, PRODUCTS_RELOAD_MS);
}

interface ExtensionsState {
  /** Per auction, how many extensions arrived live (each end once, whether by room or catalogue event). */
  count: Record<string, number>;
  /** The end each auction's last extension moved it to. */
  lastEnd: Record<string, string>;
}

/** Extensions seen live in this tab, so a card and the panel can flash "Extended" when one arrives. */
export const useExtensions = create<ExtensionsState>()(() => ({ count: {}, lastEnd: {} }));

function noteExtension(auctionId: string, validUntil: string): void {
  const { count, lastEnd } = useExtensions.getState();
  if (lastEnd[auctionId] === validUntil) return;
  useExtensions.setState({ count: { ...count, [auctionId]: (count[auctionId] ?? 0) + 1 }, lastEnd: { ...lastEnd, [auctionId]: validUntil } });
}

/** Applies one product event to the products shown. */
function applyProductEvent(e: ProductEvent): void {
  const auctionId = e.data.auction_id;
  const shown = auctionProducts.get(auctionId).data;
  if (shown && needsProductsRead(shown, e)) rereadProducts(auctionId);
  auctionProducts.patch(auctionId, (products) => applyToProducts(auctionId, products, e));
}

/** Changes one product wherever it is listed (its auction's products). */
export function patchProduct(auctionId: string, productId: string, change: (p: Product) => Product): void {
  auctionProducts.patch(auctionId, (products) => {
    const index = products.findIndex((p) => p.id === productId);
    const current = products[index];
    if (!current) return products;
    const next = change(current);
    if (next === current) return products;
    const list = products.slice();
    list[index] = next;
    return list;
  });
}

// Live events feed the queries for as long as the tab lives; a reconnect re-reads what they would
// have changed (docs/live-protocol.md#reconnecting), on screen.
onLive(PRODUCT_EVENTS, (_data, e) => applyProductEvent(e));
// The caller's own standing changed: the server's word on it (and on the numbers) is a read away.
onLive(['bid:outbid', 'bid:reinstated', 'bid:won'], (data) => rereadProducts(data.auction_id));
// A product of a shown auction renamed, moved in or out, or returned unsold by a settlement.
onLive('auction:updated', (data) => rereadProducts(data.id));
onLive('auction:extended', (data) => noteExtension(data.auction_id, data.valid_until));
onReconnect(() => invalidateSoon(queryRoots.auctionProducts));
