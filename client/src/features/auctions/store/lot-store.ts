/**
 * The lot page's own read (GET /products/{id}, the `lot-page` query keyed by product id): the
 * product with its auction and its history. The page's live numbers (highest bid, minimum, the
 * caller's standing) come from the auction's products (`auction-products`), which live events patch
 * at once; the history has aliases only the server can give ("Bidder 3"), so an event on a lot shown
 * here reads it again: at most once per LOT_REREAD_MS however many bids arrive, so a bid storm costs
 * each open lot page a read or two a second, not one per bid. The auction it carries (with the
 * caller's `registered`) is the page's auction: live events fold into it at once (an end moved, ended,
 * settled, edited), and the caller's registration and refusals mark it.
 */
import type { Auction, LotPage } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText } from '../../../lib/api-client';
import { onLive, onReconnect } from '../../../lib/live';
import { applyToAuctions, AUCTION_LIST_EVENTS } from '../../../lib/catalogue';
import { invalidateSoon, patchQueries } from '../../../lib/live-query';
import { useServerQuery, type ServerState } from '../../../lib/query';
import { queryRoots } from '../../../lib/query-keys';
import { auctionsApi } from '../api/auctions-api';
import { lotPage } from '../api/lot-query';

export { lotPage };

export const LOT_FAILED = 'Failed to load this lot';
/** The longest a shown history waits for a bid that has already changed the numbers above it. */
export const LOT_REREAD_MS = 600;

/** Reads the page of the lot's history after the last entry shown and adds it below. */
export async function loadMoreLotHistory(productId: string): Promise<void> {
  const before = lotPage.get(productId).data?.bids_next_before ?? null;
  if (before === null) return;
  const page = await auctionsApi.lotHistory(productId, before);
  // Only onto the history it was read after (a re-read meanwhile may have moved on).
  lotPage.patch(productId, (lot) => (lot.bids_next_before !== before ? lot : { ...lot, bids: [...lot.bids, ...page.bids], bids_next_before: page.next_before }));
}

/** The lot page's read: on mount (a failure other than "not found" toasted), again after live changes. */
export function useLotPage(productId: string): ServerState<LotPage> {
  return useServerQuery(lotPage.options(productId), {
    onError: (err) => {
      // The page itself says a lot does not exist.
      if (!(err instanceof ApiError && err.status === 404)) toast.error(errorText(err, LOT_FAILED));
    },
  });
}

/** The events that change a lot's history. */
const LOT_EVENTS = ['bid:placed', 'bid:rolledback', 'product:sold', 'bid:won', 'bid:reinstated', 'bid:outbid'] as const;

let reread: ReturnType<typeof setTimeout> | undefined;

/** Reads the lot pages on screen again, once for a burst of events, and at least every LOT_REREAD_MS during a storm. */
function rereadLots(): void {
  if (reread !== undefined) return;
  reread = setTimeout(() => {
    reread = undefined;
    invalidateSoon(queryRoots.lotPage);
  }, LOT_REREAD_MS);
}

/** Changes the auction of every lot page this tab holds that shows auction `auctionId` (and of a read of one on its way). */
export function patchLotAuctions(auctionId: string, change: (auction: Auction) => Auction): void {
  patchQueries<LotPage>({ queryKey: queryRoots.lotPage }, (lot) => {
    if (lot.auction?.id !== auctionId) return lot;
    const next = change(lot.auction);
    return next === lot.auction ? lot : { ...lot, auction: next };
  });
}

/** Whether the caller is registered for the auction, on every lot page of it. */
export function markLotsRegistered(auctionId: string, registered: boolean): void {
  patchLotAuctions(auctionId, (a) => (a.registered === registered ? a : { ...a, registered }));
}

/** The lot pages on screen are read again (an auction ended under a refused bid). */
export function rereadLotPages(): void {
  invalidateSoon(queryRoots.lotPage);
}

// Every live event about an auction folds into the lot pages that show it, as into the list of Browse.
onLive(AUCTION_LIST_EVENTS, (_data, e) => patchQueries<LotPage>({ queryKey: queryRoots.lotPage }, (lot) => {
  if (!lot.auction) return lot;
  const next = applyToAuctions([lot.auction], e).find((a) => a.id === lot.auction?.id);
  return next === undefined || next === lot.auction ? lot : { ...lot, auction: next };
}));

onLive(LOT_EVENTS, (data) => {
  if (lotPage.get(data.product_id).data !== undefined) rereadLots();
});
// A lot renamed, its photos changed, moved out of its auction or returned unsold by a settlement.
onLive(['auction:updated', 'auction:settled', 'auction:deleted'], () => rereadLots());
onReconnect(() => invalidateSoon(queryRoots.lotPage));
