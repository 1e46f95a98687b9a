/**
 * The caller's bids (GET /user-bids, the `myBids` resource of lib/resource.ts) and the cancel action.
 * Personal live events patch the affected row at once and a quiet re-read confirms it, so a row turning
 * Outbid, Active or Won updates in place. Only live patching and the cancel button's state live here.
 */
import { create } from 'zustand';
import type { UserBid } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { createResource, invalidate, useResource } from '../../../lib/resource';
import { onLive, onReconnect, type LiveEvent } from '../../../lib/live';
import { fetchUserBids, rollbackBid } from '../api/bids-api';
import { applyBidEvent, isBidEvent } from '../model';

export type ActionResult = { ok: true } | { ok: false; error: string };

export const LOAD_FAILED = 'Failed to load your bids';
export const CANCEL_FAILED = 'Failed to cancel bid';
/** Live patches are confirmed by one re-read after a burst of events settles. */
export const REFETCH_DELAY_MS = 300;

/** The caller's bids, newest first. */
export const myBids = createResource<void, UserBid[]>('my-bids', () => fetchUserBids());

/** The caller's bids for a page: read on mount, a failed read of its own toasted. */
export function useMyBids() {
  return useResource(myBids, undefined, { onError: (err) => toast.error(errorText(err, LOAD_FAILED)) });
}

/** The bids this tab knows, for lookups outside React (no read). */
export function knownBids(): UserBid[] {
  return myBids.get().data ?? [];
}

export interface BidCancelState {
  /** The bid being cancelled, so its button can show that it is busy. */
  cancellingId: number | null;
  cancel: (bidId: number) => Promise<ActionResult>;
}

export const useBidCancel = create<BidCancelState>()((set, get) => ({
  cancellingId: null,

  cancel: async (bidId) => {
    if (get().cancellingId !== null) return { ok: false, error: CANCEL_FAILED };
    set({ cancellingId: bidId });
    try {
      await rollbackBid(bidId);
      myBids.patch(undefined, (bids) => bids.map((b) => (b.bid_id === bidId ? { ...b, status: 'rolledback' as const, reason: 'CANCELLED' } : b)));
      set({ cancellingId: null });
      invalidate(myBids.name, REFETCH_DELAY_MS);
      return { ok: true };
    } catch (err) {
      set({ cancellingId: null });
      // The bid may have changed meanwhile (outbid, settled): show what it is now.
      invalidate(myBids.name, REFETCH_DELAY_MS);
      return { ok: false, error: errorText(err, CANCEL_FAILED) };
    }
  },
}));

/** Applies one personal event to the list (exported for tests; the store listens by itself). */
export function handleBidsLiveEvent(e: LiveEvent): void {
  if (!isBidEvent(e)) return;
  myBids.patch(undefined, (bids) => applyBidEvent(bids, e));
  invalidate(myBids.name, REFETCH_DELAY_MS);
}

onLive(handleBidsLiveEvent);
// Outbid, reinstated or won while the socket was down: the re-read shows it (docs/live-protocol.md#reconnecting).
onReconnect(() => invalidate(myBids.name, REFETCH_DELAY_MS));
