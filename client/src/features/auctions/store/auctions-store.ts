/**
 * The bidder's auctions: the list (GET /auctions, the `auctions` resource of lib/resource.ts) and each
 * auction's products (GET /auctions/:id/products, the `auction-products` resource, keyed by auction id),
 * and the register and bid flows. Live events fold in through the pure reducers in `live-reducers.ts`,
 * as patches, so an event that arrives while a read is on its way applies over its reply too; product
 * events no newer than the version shown change nothing. A reconnect re-reads what is on screen, and a
 * session change forgets everything (the session store's `resetAll()`). Only the registration buttons'
 * state and the two actions live in the zustand store here.
 */
import { create } from 'zustand';
import type { Auction, Product } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText } from '../../../lib/api-client';
import { createResource, invalidate, useResource, type UseResource } from '../../../lib/resource';
import { useSession } from '../../auth';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { auctionsApi } from '../api/auctions-api';
import { applyToAuctions, applyToProducts, productsAuctionOf } from './live-reducers';

export const LIST_FAILED = 'Failed to load auctions';
export const PRODUCTS_FAILED = 'Failed to load products';

/**
 * `auction:updated` carries no product list (a rename or a product moved in or out looks the same), so
 * the products on screen are read again, once per burst of edits.
 */
export const PRODUCTS_RELOAD_MS = 250;

/** The auctions open to bidders, newest first, with the caller's own registration. */
export const auctionList = createResource<void, Auction[]>('auctions', () => auctionsApi.list());
/** One auction's products, by auction id. */
export const auctionProducts = createResource<string, Product[]>('auction-products', (auctionId) => auctionsApi.products(auctionId));

export interface AuctionReadOptions {
  /** No error toast (pages that tolerate a failed read, such as My Bids). */
  silent?: boolean;
  /** False: follow what the tab has without reading it (a piece of a page that reads it itself). */
  read?: boolean;
}

/** The list for a component: read on mount (a failed read toasted unless silent), kept current live. */
export function useAuctionList({ silent = false, read = true }: AuctionReadOptions = {}): UseResource<Auction[]> {
  return useResource(auctionList, undefined, {
    enabled: read,
    onError: silent ? undefined : (err) => toast.error(errorText(err, LIST_FAILED)),
  });
}

/** An auction's products for a component: read on mount (a failed read toasted unless silent), kept current live. */
export function useAuctionProducts(auctionId: string, { silent = false, read = true }: AuctionReadOptions = {}): UseResource<Product[]> {
  return useResource(auctionProducts, auctionId, {
    enabled: read,
    onError: silent ? undefined : (err) => toast.error(errorText(err, PRODUCTS_FAILED)),
  });
}

/** The products of an auction this tab has loaded, for lookups outside React (no read). */
export function knownProducts(auctionId: string): Product[] {
  return auctionProducts.get(auctionId).data ?? [];
}

export interface AuctionActionsState {
  /** Auctions with a registration on its way. */
  registering: Record<string, boolean>;
  register: (auctionId: string) => Promise<boolean>;
  placeBid: (auctionId: string, productId: string, amount: number) => Promise<boolean>;
}

export const useAuctionActions = create<AuctionActionsState>()((set) => ({
  registering: {},

  register: async (auctionId) => {
    set((s) => ({ registering: { ...s.registering, [auctionId]: true } }));
    try {
      await auctionsApi.register(auctionId);
      const userId = useSession.getState().user?.id;
      auctionList.patch(undefined, (auctions) => auctions.map((a) => (a.id !== auctionId ? a : {
        ...a,
        registered: true,
        registrations: userId === undefined || a.registrations.includes(userId) ? a.registrations : [...a.registrations, userId],
      })));
      toast.success('Successfully registered for auction!');
      return true;
    } catch (err) {
      toast.error(errorText(err, 'Failed to register'));
      return false;
    } finally {
      set((s) => {
        const registering = { ...s.registering };
        delete registering[auctionId];
        return { registering };
      });
    }
  },

  placeBid: async (auctionId, productId, amount) => {
    try {
      const reply = await auctionsApi.bid(productId, amount);
      // The live `bid:placed` may already have landed; only a reply that is news moves the numbers.
      auctionProducts.patch(auctionId, (products) => products.map((p) => (p.id === productId && reply.highest_bid > p.highest_bid
        ? { ...p, highest_bid: reply.highest_bid, bid_count: p.bid_count + 1 }
        : p)));
      toast.success('Bid placed successfully!');
      return true;
    } catch (err) {
      // The bid flow shows the server's `message` field.
      toast.error(err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to place bid');
      if (err instanceof ApiError) learnFromRefusal(auctionId, productId, err.code);
      return false;
    }
  },
}));

/** A refused bid tells us something the page may not know yet; show it at once. */
function learnFromRefusal(auctionId: string, productId: string, code: string) {
  if (code === 'PRODUCT_SOLD') {
    auctionProducts.patch(auctionId, (products) => products.map((p) => (p.id === productId ? { ...p, status: 'sold' as const } : p)));
  } else if (code === 'NOT_REGISTERED') {
    auctionList.patch(undefined, (auctions) => auctions.map((a) => (a.id === auctionId ? { ...a, registered: false } : a)));
  } else if (code === 'AUCTION_ENDED' || code === 'AUCTION_SETTLED') {
    invalidate(auctionList.name);
  }
}

/** Applies one live event to the list and the products. */
function handleAuctionsLiveEvent(e: LiveEvent): void {
  auctionList.patch(undefined, (auctions) => applyToAuctions(auctions, e));
  const auctionId = productsAuctionOf(e);
  if (auctionId !== undefined) auctionProducts.patch(auctionId, (products) => applyToProducts(auctionId, products, e));
  // A product of a shown auction renamed, moved in or out, or returned unsold by a settlement.
  if (e.event === 'auction:updated') {
    const { data, fetching } = auctionProducts.get(e.data.id);
    if (data !== undefined || fetching) invalidate(auctionProducts.name, PRODUCTS_RELOAD_MS);
  }
}

// Live events feed the resources for as long as the tab lives; a reconnect re-reads what they would
// have changed (docs/live-protocol.md#reconnecting), on screen.
onLive(handleAuctionsLiveEvent);
onReconnect(() => {
  invalidate(auctionList.name);
  invalidate(auctionProducts.name);
});
