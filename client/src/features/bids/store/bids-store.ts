/**
 * The caller's bids (GET /user-bids) and the cancel action. Personal live events patch the affected row
 * at once and a quiet re-read confirms it, so a row turning Outbid, Active or Won updates in place.
 */
import { create } from 'zustand';
import type { UserBid } from '@auction/shared';
import { errorText } from '../../../lib/api-client';
import { useSession } from '../../auth';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { fetchUserBids, rollbackBid } from '../api/bids-api';
import { applyBidEvent, isBidEvent } from '../model';

export type ActionResult = { ok: true } | { ok: false; error: string };

export interface BidsState {
  bids: UserBid[];
  /** True once a list has come from the server (an empty one included). */
  loaded: boolean;
  loading: boolean;
  /** The last load's error text, cleared by the next success. */
  error: string | null;
  /** The bid being cancelled, so its button can show that it is busy. */
  cancellingId: number | null;
  load: () => Promise<ActionResult>;
  cancel: (bidId: number) => Promise<ActionResult>;
  reset: () => void;
}

export const LOAD_FAILED = 'Failed to load your bids';
export const CANCEL_FAILED = 'Failed to cancel bid';
/** Live patches are confirmed by one re-read after a burst of events settles. */
export const REFETCH_DELAY_MS = 300;

// Each load, live patch and reset takes a new number; an answer that arrives under an older one is
// stale (it was read before the patch) and is dropped.
let generation = 0;
let refetchTimer: ReturnType<typeof setTimeout> | undefined;

const initial = { bids: [] as UserBid[], loaded: false, loading: false, error: null, cancellingId: null };

export const useBids = create<BidsState>()((set, get) => ({
  ...initial,

  load: async () => {
    const mine = ++generation;
    set({ loading: true });
    try {
      const bids = await fetchUserBids();
      if (mine === generation) set({ bids, loaded: true, loading: false, error: null });
      return { ok: true };
    } catch (err) {
      const error = errorText(err, LOAD_FAILED);
      if (mine === generation) set({ loading: false, error });
      return { ok: false, error };
    }
  },

  cancel: async (bidId) => {
    if (get().cancellingId !== null) return { ok: false, error: CANCEL_FAILED };
    set({ cancellingId: bidId });
    try {
      await rollbackBid(bidId);
      generation++;
      set((s) => ({
        cancellingId: null,
        bids: s.bids.map((b) => (b.bid_id === bidId ? { ...b, status: 'rolledback' as const, reason: 'CANCELLED' } : b)),
      }));
      scheduleRefetch();
      return { ok: true };
    } catch (err) {
      set({ cancellingId: null });
      // The bid may have changed meanwhile (outbid, settled): show what it is now.
      scheduleRefetch();
      return { ok: false, error: errorText(err, CANCEL_FAILED) };
    }
  },

  reset: () => {
    generation++;
    clearTimeout(refetchTimer);
    set(initial);
  },
}));

function scheduleRefetch(): void {
  clearTimeout(refetchTimer);
  refetchTimer = setTimeout(() => {
    // Only a list someone asked for is kept fresh (a dropped first load counts as asked for).
    const s = useBids.getState();
    if (s.loaded || s.loading) void s.load();
  }, REFETCH_DELAY_MS);
}

/** Applies one personal event to the list (exported for tests; the store listens by itself). */
export function handleBidsLiveEvent(e: LiveEvent): void {
  if (!isBidEvent(e)) return;
  generation++;
  const { bids } = useBids.getState();
  const next = applyBidEvent(bids, e);
  if (next !== bids) useBids.setState({ bids: next });
  scheduleRefetch();
}

onLive(handleBidsLiveEvent);
// Outbid, reinstated or won while the socket was down: the re-read shows it (docs/live-protocol.md#reconnecting).
onReconnect(scheduleRefetch);

// Another account in this tab must never see the previous one's bids.
useSession.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id || s.userToken !== prev.userToken) useBids.getState().reset();
});
