/**
 * The bidder's auctions: the list (GET /auctions, the `auctions` resource of lib/resource.ts) and each
 * auction's products (GET /auctions/:id/products, the `auction-products` resource, keyed by auction id),
 * and the register and bid flows. Live events fold in through the pure reducers in `live-reducers.ts`,
 * as patches, so an event that arrives while a read is on its way applies over its reply too; product
 * events no newer than the version shown change nothing. A reconnect re-reads what is on screen, and a
 * session change forgets everything (the session store's `resetAll()`). Only the registration buttons'
 * state and the actions (register, bid, buy now) live in the zustand store here, and the extensions
 * soft close has made while this tab watched (`useExtensionFlash`, for the "Extended" flash).
 *
 * The caller's own standing on a lot (`my_status`, `my_max`) comes from the products read, then from
 * the caller's own bid and buy-now answers and from their personal events (outbid, reinstated, won),
 * after which the products on screen are also read again quietly: the read has the server's word.
 */
import { create } from 'zustand';
import type { Auction, BidPlaced, Product } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText } from '../../../lib/api-client';
import { createResource, invalidate, useResource, type UseResource } from '../../../lib/resource';
import { useSession } from '../../../lib/session';
import { onLive, onReconnect, type LiveEvent } from '../../../lib/live';
import { setWalletBalance } from '../../wallet';
import { auctionsApi, type BidAsk } from '../api/auctions-api';
import { applyToAuctions, applyToProducts, needsProductsRead, productsAuctionOf } from './live-reducers';

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

/** What a bid came to: refused (the toast said why), or accepted and leading, or at once outbid by a leader's maximum. */
export type BidOutcome =
  | { ok: false }
  | { ok: true; leading: boolean; message: string; reply: BidPlaced };

export interface AuctionActionsState {
  /** Auctions with a registration on its way. */
  registering: Record<string, boolean>;
  /** Products with a buy-now purchase on its way. */
  buying: Record<string, boolean>;
  register: (auctionId: string) => Promise<boolean>;
  placeBid: (auctionId: string, productId: string, ask: BidAsk) => Promise<BidOutcome>;
  buyNow: (auctionId: string, productId: string) => Promise<boolean>;
}

const without = (map: Record<string, boolean>, key: string) => {
  const next = { ...map };
  delete next[key];
  return next;
};

/** The products of auctions this tab shows (or is reading) are read again quietly, once per burst. */
function rereadProducts(auctionId: string): void {
  const { data, fetching } = auctionProducts.get(auctionId);
  if (data !== undefined || fetching) invalidate(auctionProducts.name, PRODUCTS_RELOAD_MS);
}

export const useAuctionActions = create<AuctionActionsState>()((set) => ({
  registering: {},
  buying: {},

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
      set((s) => ({ registering: without(s.registering, auctionId) }));
    }
  },

  placeBid: async (auctionId, productId, ask) => {
    try {
      const reply = await auctionsApi.bid(productId, ask);
      let stale = false;
      auctionProducts.patch(auctionId, (products) => products.map((p) => {
        if (p.id !== productId) return p;
        // Something newer than this bid has been shown already (the live event of a later bid): the
        // numbers and the standing there are newer; a quiet re-read settles the standing.
        if (p.version > reply.version) {
          stale = true;
          return p;
        }
        return {
          ...p,
          // The live `bid:placed` may already have landed (same version); only a reply that is news moves the numbers.
          ...(reply.version > p.version ? { highest_bid: reply.highest_bid, min_next_bid: reply.min_next_bid, bid_count: p.bid_count + 1 } : {}),
          my_status: reply.leading ? 'leading' : 'outbid',
          my_max: reply.leading ? reply.max_amount : null,
        };
      }));
      if (stale) rereadProducts(auctionId);
      setWalletBalance(reply.wallet_balance);
      if (reply.leading) toast.success(reply.message);
      return { ok: true, leading: reply.leading, message: reply.message, reply };
    } catch (err) {
      // The bid flow shows the server's `message` field.
      toast.error(err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to place bid');
      if (err instanceof ApiError) learnFromRefusal(auctionId, productId, err.code);
      return { ok: false };
    }
  },

  buyNow: async (auctionId, productId) => {
    set((s) => ({ buying: { ...s.buying, [productId]: true } }));
    try {
      const reply = await auctionsApi.buyNow(productId);
      auctionProducts.patch(auctionId, (products) => products.map((p) => (p.id !== productId ? p : {
        ...p,
        ...(reply.version > p.version ? { status: 'sold' as const, highest_bid: reply.bid.amount, bid_count: p.bid_count + 1 } : {}),
        buy_now_price: null,
        my_status: 'won' as const,
        my_max: null,
      })));
      // The balance on screen (the dialog's, the wallet's) follows; `wallet:updated` says the same.
      setWalletBalance(reply.wallet_balance);
      toast.success(reply.message);
      return true;
    } catch (err) {
      toast.error(err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to buy now');
      if (err instanceof ApiError) learnFromRefusal(auctionId, productId, err.code);
      return false;
    } finally {
      set((s) => ({ buying: without(s.buying, productId) }));
    }
  },
}));

/** A refused bid or purchase tells us something the page may not know yet; show it at once. */
function learnFromRefusal(auctionId: string, productId: string, code: string) {
  if (code === 'PRODUCT_SOLD') {
    auctionProducts.patch(auctionId, (products) => products.map((p) => (p.id === productId ? { ...p, status: 'sold' as const, buy_now_price: null } : p)));
  } else if (code === 'BUY_NOW_UNAVAILABLE') {
    auctionProducts.patch(auctionId, (products) => products.map((p) => (p.id === productId ? { ...p, buy_now_price: null } : p)));
    rereadProducts(auctionId);
  } else if (code === 'BID_TOO_LOW') {
    // The minimum moved under the dialog (an event still on its way, or a dropped connection).
    rereadProducts(auctionId);
  } else if (code === 'NOT_REGISTERED') {
    auctionList.patch(undefined, (auctions) => auctions.map((a) => (a.id === auctionId ? { ...a, registered: false } : a)));
  } else if (code === 'AUCTION_ENDED' || code === 'AUCTION_SETTLED') {
    invalidate(auctionList.name);
  }
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

/** Applies one live event to the list and the products. */
function handleAuctionsLiveEvent(e: LiveEvent): void {
  auctionList.patch(undefined, (auctions) => applyToAuctions(auctions, e));
  const auctionId = productsAuctionOf(e);
  if (auctionId !== undefined) {
    const shown = auctionProducts.get(auctionId).data;
    if (shown && needsProductsRead(shown, e)) rereadProducts(auctionId);
    auctionProducts.patch(auctionId, (products) => applyToProducts(auctionId, products, e));
  }
  switch (e.event) {
    // A product of a shown auction renamed, moved in or out, or returned unsold by a settlement.
    case 'auction:updated':
      rereadProducts(e.data.id);
      break;
    // The caller's own standing changed: the server's word on it (and on the numbers) is a read away.
    case 'bid:outbid':
    case 'bid:reinstated':
    case 'bid:won':
      rereadProducts(e.data.auction_id);
      break;
    case 'auction:extended':
      noteExtension(e.data.auction_id, e.data.valid_until);
      break;
    default:
      break;
  }
}

// Live events feed the resources for as long as the tab lives; a reconnect re-reads what they would
// have changed (docs/live-protocol.md#reconnecting), on screen.
onLive(handleAuctionsLiveEvent);
onReconnect(() => {
  invalidate(auctionList.name);
  invalidate(auctionProducts.name);
});
