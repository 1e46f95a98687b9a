/**
 * The bidder's writes on a lot as TanStack mutations: a bid and a buy-now purchase. Their answers are
 * news newer than what the page shows: they fold into the auction's products (`patchProduct`, which
 * also reaches a read in flight) and set the wallet balance; a refusal teaches the page what it did
 * not know yet (sold, no longer at that price, the minimum moved, the auction over).
 */
import type { BidPlaced, BoughtNow } from '@auction/shared';
import type { DefaultError, UseMutationOptions } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { setWalletBalance } from '../../../lib/account/wallet-balance';
import { invalidateSoon } from '../../../lib/live-query';
import { browseRoots } from '../../../lib/query-keys';
import { auctionById, markAuctionRegistered, markCardRegistered, patchProduct, rereadProducts, type BidAsk } from '../../../lib/catalogue';
import { markLotsRegistered, rereadLotPages } from '../store/lot-store';
import { auctionsApi } from './auctions-api';

export interface BidVariables {
  auctionId: string;
  productId: string;
  ask: BidAsk;
}

export interface BuyNowVariables {
  auctionId: string;
  productId: string;
}

/** A refused bid or purchase tells us something the page may not know yet; show it at once. */
export function learnFromRefusal(auctionId: string, productId: string, code: string): void {
  if (code === 'PRODUCT_SOLD') {
    patchProduct(auctionId, productId, (p) => ({ ...p, status: 'sold', buy_now_price: null }));
  } else if (code === 'BUY_NOW_UNAVAILABLE') {
    patchProduct(auctionId, productId, (p) => ({ ...p, buy_now_price: null }));
    rereadProducts(auctionId);
  } else if (code === 'BID_TOO_LOW') {
    // The minimum moved under the dialog (an event still on its way, or a dropped connection).
    rereadProducts(auctionId);
  } else if (code === 'NOT_REGISTERED') {
    auctionById.patch(auctionId, (a) => ({ ...a, registered: false }));
    markLotsRegistered(auctionId, false);
  } else if (code === 'AUCTION_ENDED' || code === 'AUCTION_SETTLED') {
    // The auction shown (Browse's panel, the lot page) says so once read again.
    invalidateSoon(browseRoots.auctionById);
    rereadLotPages();
  }
}

/** POST /bid: the answer moves the numbers (unless a newer live event did) and the caller's standing. */
export const bidMutation: UseMutationOptions<BidPlaced, DefaultError, BidVariables> = {
  mutationKey: ['bid'],
  mutationFn: ({ productId, ask }) => auctionsApi.bid(productId, ask),
  onSuccess: (reply, { auctionId, productId }) => {
    let stale = false;
    patchProduct(auctionId, productId, (p) => {
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
    });
    if (stale) rereadProducts(auctionId);
    setWalletBalance(reply.wallet_balance);
  },
  onError: (err, { auctionId, productId }) => {
    if (err instanceof ApiError) learnFromRefusal(auctionId, productId, err.code);
  },
};

/** POST /buy-now: the lot is the caller's at once; the balance on screen follows. */
export const buyNowMutation: UseMutationOptions<BoughtNow, DefaultError, BuyNowVariables> = {
  mutationKey: ['buy-now'],
  mutationFn: ({ productId }) => auctionsApi.buyNow(productId),
  onSuccess: (reply, { auctionId, productId }) => {
    patchProduct(auctionId, productId, (p) => ({
      ...p,
      ...(reply.version > p.version ? { status: 'sold' as const, highest_bid: reply.bid.amount, bid_count: p.bid_count + 1 } : {}),
      buy_now_price: null,
      my_status: 'won' as const,
      my_max: null,
    }));
    // The balance on screen (the dialog's, the wallet's) follows; `wallet:updated` says the same.
    setWalletBalance(reply.wallet_balance);
  },
  onError: (err, { auctionId, productId }) => {
    if (err instanceof ApiError) learnFromRefusal(auctionId, productId, err.code);
  },
};

/** POST /auctions/register: Browse's card and panel and the lot pages show the caller registered. */
export function registerMutation(userId: number | undefined): UseMutationOptions<unknown, DefaultError, string> {
  return {
    mutationKey: ['register'],
    mutationFn: (auctionId) => auctionsApi.register(auctionId),
    onSuccess: (_reply, auctionId) => {
      markCardRegistered(auctionId);
      markAuctionRegistered(auctionId, userId);
      markLotsRegistered(auctionId, true);
    },
  };
}

