/**
 * The bidder's actions on auctions: register, bid and buy now, each a TanStack mutation
 * (api/auction-mutations.ts) run from here so the buttons that started them and the rows that show
 * them busy share one state. The catalogue they change (each auction's products and the auctions read
 * by id, with their live folding) is shared infrastructure in lib/catalogue.
 */
import { create } from 'zustand';
import type { BidPlaced } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText } from '../../../lib/api-client';
import { runMutation } from '../../../lib/query';
import { signInToContinue, useSession } from '../../../lib/session';
import type { BidAsk } from '../../../lib/catalogue';
import { bidMutation, buyNowMutation, registerMutation } from '../api/auction-mutations';

export {
  auctionProducts, knownProducts, useAuctionById, useAuctionProducts, useExtensions, PRODUCTS_FAILED, PRODUCTS_RELOAD_MS,
} from '../../../lib/catalogue';
export type { AuctionReadOptions } from '../../../lib/catalogue';

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

export const useAuctionActions = create<AuctionActionsState>()((set) => ({
  registering: {},
  buying: {},

  register: async (auctionId) => {
    // A visitor registers by signing in first, then coming back to the page they were on.
    if (useSession.getState().user === null) {
      signInToContinue();
      return false;
    }
    set((s) => ({ registering: { ...s.registering, [auctionId]: true } }));
    try {
      await runMutation(registerMutation(useSession.getState().user?.id), auctionId);
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
      const reply = await runMutation(bidMutation, { auctionId, productId, ask });
      if (reply.leading) toast.success(reply.message);
      return { ok: true, leading: reply.leading, message: reply.message, reply };
    } catch (err) {
      // The bid flow shows the server's `message` field.
      toast.error(err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to place bid');
      return { ok: false };
    }
  },

  buyNow: async (auctionId, productId) => {
    set((s) => ({ buying: { ...s.buying, [productId]: true } }));
    try {
      const reply = await runMutation(buyNowMutation, { auctionId, productId });
      toast.success(reply.message);
      return true;
    } catch (err) {
      toast.error(err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to buy now');
      return false;
    } finally {
      set((s) => ({ buying: without(s.buying, productId) }));
    }
  },
}));
