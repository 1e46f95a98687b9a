/**
 * The cancel action on one of the caller's bids, a TanStack mutation: its answer marks the row
 * cancelled at once and a quiet re-read confirms it. The list itself (with its live patching) is the
 * shared `myBids` query of lib/account/my-bids.ts.
 */
import { create } from 'zustand';
import { errorText } from '../../../lib/api-client';
import { withState } from '../../../lib/account/bids-model';
import { myBids, rereadMyBids } from '../../../lib/account/my-bids';
import { runMutation } from '../../../lib/query';
import { rollbackBid } from '../api/bids-api';

export { myBids, useMyBids, knownBids, handleBidsLiveEvent, LOAD_FAILED, REFETCH_DELAY_MS } from '../../../lib/account/my-bids';

export type ActionResult = { ok: true } | { ok: false; error: string };

export const CANCEL_FAILED = 'Failed to cancel bid';

/** POST /rollback-bid: the row shows the bid cancelled; the list is read again either way. */
const cancelMutation = {
  mutationKey: ['cancel-bid'],
  mutationFn: (bidId: number) => rollbackBid(bidId),
  onSuccess: (_reply: unknown, bidId: number) => {
    myBids.patch(undefined, (bids) => bids.map((b) => (b.bid_id === bidId ? { ...withState(b, 'rolledback'), reason: 'CANCELLED' } : b)));
  },
  // The bid may have changed meanwhile (outbid, settled): show what it is now.
  onSettled: () => rereadMyBids(),
};

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
      await runMutation(cancelMutation, bidId);
      set({ cancellingId: null });
      return { ok: true };
    } catch (err) {
      set({ cancellingId: null });
      return { ok: false, error: errorText(err, CANCEL_FAILED) };
    }
  },
}));
