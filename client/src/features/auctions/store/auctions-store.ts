/**
 * The bidder's auctions (actions beside the state): the list, products per auction, and the
 * register and bid flows. Live events fold in through the pure reducers in `live-reducers.ts`.
 */
import { create } from 'zustand';
import type { Auction, Product } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText } from '../../../lib/api-client';
import { useSession } from '../../auth';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { auctionsApi } from '../api/auctions-api';
import { applyLiveEvent, type AuctionsData } from './live-reducers';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface LoadOptions {
  /** No error toast (callers that tolerate a failed load, such as the dashboard). */
  silent?: boolean;
}

export interface AuctionsState extends AuctionsData {
  listStatus: LoadStatus;
  productsStatus: Record<string, LoadStatus>;
  /** Auctions with a registration on its way. */
  registering: Record<string, boolean>;
  loadAuctions: (options?: LoadOptions) => Promise<boolean>;
  loadProducts: (auctionId: string, options?: LoadOptions) => Promise<boolean>;
  register: (auctionId: string) => Promise<boolean>;
  placeBid: (auctionId: string, productId: string, amount: number) => Promise<boolean>;
  applyLive: (e: LiveEvent) => void;
  /** After a reconnect: quietly re-read the list and every auction's products that are shown or on their way. */
  refresh: () => void;
  reset: () => void;
}

const initial = {
  auctions: [] as Auction[],
  products: {} as Record<string, Product[]>,
  listStatus: 'idle' as LoadStatus,
  productsStatus: {} as Record<string, LoadStatus>,
  registering: {} as Record<string, boolean>,
};

/*
 * A load and a live event can cross: the reply may be computed before an event that arrives first.
 * Every event that arrives while a load is in flight is replayed, in order, over the reply; the
 * reducers set absolute values and skip product events no newer than the version shown, so the result
 * is the newest state either way.
 */
const inflight = new Set<LiveEvent[]>();
let listSeq = 0;
const productSeq = new Map<string, number>();

/**
 * `auction:updated` carries no product list (a rename or a product moved in or out looks the same), so
 * an auction whose products are shown reads them again, once per burst of edits.
 */
const PRODUCTS_RELOAD_MS = 250;
const productReloads = new Map<string, ReturnType<typeof setTimeout>>();

function replay(data: AuctionsData, events: readonly LiveEvent[]): AuctionsData {
  return events.reduce(applyLiveEvent, data);
}

export const useAuctions = create<AuctionsState>()((set, get) => ({
  ...initial,

  loadAuctions: async ({ silent = false } = {}) => {
    const seq = ++listSeq;
    const buffer: LiveEvent[] = [];
    inflight.add(buffer);
    set({ listStatus: 'loading' });
    try {
      const list = await auctionsApi.list();
      if (seq !== listSeq) return true;
      const { products } = get();
      set({ ...replay({ auctions: list, products }, buffer), listStatus: 'ready' });
      return true;
    } catch (err) {
      if (seq === listSeq) set({ listStatus: 'error' });
      if (!silent) toast.error(errorText(err, 'Failed to load auctions'));
      return false;
    } finally {
      inflight.delete(buffer);
    }
  },

  loadProducts: async (auctionId, { silent = false } = {}) => {
    const seq = (productSeq.get(auctionId) ?? 0) + 1;
    productSeq.set(auctionId, seq);
    const buffer: LiveEvent[] = [];
    inflight.add(buffer);
    set((s) => ({ productsStatus: { ...s.productsStatus, [auctionId]: 'loading' } }));
    try {
      const list = await auctionsApi.products(auctionId);
      if (productSeq.get(auctionId) !== seq) return true;
      const { auctions, products } = get();
      const next = replay({ auctions, products: { ...products, [auctionId]: list } }, buffer);
      set((s) => ({ ...next, productsStatus: { ...s.productsStatus, [auctionId]: 'ready' } }));
      return true;
    } catch (err) {
      if (productSeq.get(auctionId) === seq) set((s) => ({ productsStatus: { ...s.productsStatus, [auctionId]: 'error' } }));
      if (!silent) toast.error(errorText(err, 'Failed to load products'));
      return false;
    } finally {
      inflight.delete(buffer);
    }
  },

  register: async (auctionId) => {
    set((s) => ({ registering: { ...s.registering, [auctionId]: true } }));
    try {
      await auctionsApi.register(auctionId);
      const userId = useSession.getState().user?.id;
      set((s) => ({
        auctions: s.auctions.map((a) => (a.id !== auctionId ? a : {
          ...a,
          registered: true,
          registrations: userId === undefined || a.registrations.includes(userId) ? a.registrations : [...a.registrations, userId],
        })),
      }));
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
      set((s) => {
        const list = s.products[auctionId];
        if (!list) return {};
        return {
          products: {
            ...s.products,
            [auctionId]: list.map((p) => (p.id === productId && reply.highest_bid > p.highest_bid
              ? { ...p, highest_bid: reply.highest_bid, bid_count: p.bid_count + 1 }
              : p)),
          },
        };
      });
      toast.success('Bid placed successfully!');
      return true;
    } catch (err) {
      // The bid flow shows the server's `message` field.
      toast.error(err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to place bid');
      if (err instanceof ApiError) learnFromRefusal(auctionId, productId, err.code);
      return false;
    }
  },

  applyLive: (e) => {
    for (const buffer of inflight) buffer.push(e);
    const before = get();
    const next = applyLiveEvent({ auctions: before.auctions, products: before.products }, e);
    if (next.auctions !== before.auctions || next.products !== before.products) set(next);

    if (e.event === 'auction:deleted') {
      set((s) => {
        const productsStatus = { ...s.productsStatus };
        delete productsStatus[e.data.id];
        return { productsStatus };
      });
    }
    // A product of a shown auction renamed, moved in or out, or returned unsold by a settlement.
    if (e.event === 'auction:updated' && before.products[e.data.id] && !productReloads.has(e.data.id)) {
      const auctionId = e.data.id;
      productReloads.set(auctionId, setTimeout(() => {
        productReloads.delete(auctionId);
        if (get().products[auctionId]) void get().loadProducts(auctionId, { silent: true });
      }, PRODUCTS_RELOAD_MS));
    }
  },

  refresh: () => {
    const { listStatus, products, productsStatus, loadAuctions, loadProducts } = get();
    if (listStatus !== 'idle') void loadAuctions({ silent: true });
    for (const id of Object.keys(productsStatus)) {
      if (products[id] !== undefined || productsStatus[id] === 'loading') void loadProducts(id, { silent: true });
    }
  },

  reset: () => {
    listSeq += 1;
    productSeq.clear();
    for (const timer of productReloads.values()) clearTimeout(timer);
    productReloads.clear();
    set({ ...initial });
  },
}));

/** A refused bid tells us something the page may not know yet; show it at once. */
function learnFromRefusal(auctionId: string, productId: string, code: string) {
  const { getState, setState } = useAuctions;
  if (code === 'PRODUCT_SOLD') {
    setState((s) => {
      const list = s.products[auctionId];
      return list ? { products: { ...s.products, [auctionId]: list.map((p) => (p.id === productId ? { ...p, status: 'sold' as const } : p)) } } : {};
    });
  } else if (code === 'NOT_REGISTERED') {
    setState((s) => ({ auctions: s.auctions.map((a) => (a.id === auctionId ? { ...a, registered: false } : a)) }));
  } else if (code === 'AUCTION_ENDED' || code === 'AUCTION_SETTLED') {
    void getState().loadAuctions({ silent: true });
  }
}

// Live events feed the store for as long as the tab lives, a reconnect re-reads what they would have
// changed (docs/live-protocol.md#reconnecting); a different user starts from scratch.
onLive((e) => useAuctions.getState().applyLive(e));
onReconnect(() => useAuctions.getState().refresh());
useSession.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id) useAuctions.getState().reset();
});
