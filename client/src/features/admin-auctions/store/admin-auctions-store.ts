/**
 * The signed-in admin's own auctions (management pages show only the admin's own auctions), with
 * the create, edit, delete and settle flows beside them (actions beside the state). The dashboard and Manage Auctions
 * share it; the admin room's live events keep the statuses current.
 */
import { create } from 'zustand';
import type { AdminAuction, CreateAuctionBody, UpdateAuctionBody } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText, isSessionEnded } from '../../../lib/api-client';
import { useSession } from '../../auth';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { adminApi } from '../api/admin-api';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface AdminAuctionsState {
  auctions: AdminAuction[];
  status: LoadStatus;
  /** Auction ids with a change on its way (buttons wait for it). */
  busy: Record<string, boolean>;
  /** Bumped after every change this tab makes, so the dashboard refreshes its numbers. */
  version: number;
  load: (options?: { silent?: boolean }) => Promise<boolean>;
  create: (input: CreateAuctionBody) => Promise<boolean>;
  update: (id: string, input: UpdateAuctionBody) => Promise<AdminAuction | null>;
  remove: (id: string) => Promise<boolean>;
  settle: (id: string) => Promise<boolean>;
  applyLive: (e: LiveEvent) => void;
  reset: () => void;
}

let loadSeq = 0;
/** `auction:updated` carries no product list: the list is read again, once per burst of edits. */
const RELOAD_MS = 250;
let reloadTimer: ReturnType<typeof setTimeout> | null = null;

export const useAdminAuctions = create<AdminAuctionsState>()((set, get) => {
  async function withBusy<T>(id: string, fn: () => Promise<T>): Promise<T> {
    set((s) => ({ busy: { ...s.busy, [id]: true } }));
    try {
      return await fn();
    } finally {
      set((s) => {
        const busy = { ...s.busy };
        delete busy[id];
        return { busy };
      });
    }
  }

  const changed = () => set((s) => ({ version: s.version + 1 }));

  return {
    auctions: [],
    status: 'idle',
    busy: {},
    version: 0,

    load: async ({ silent = false } = {}) => {
      const seq = ++loadSeq;
      if (get().status !== 'ready') set({ status: 'loading' });
      try {
        const auctions = await adminApi.myAuctions();
        if (seq === loadSeq) set({ auctions, status: 'ready' });
        return true;
      } catch (err) {
        if (seq === loadSeq && get().status !== 'ready') set({ status: 'error' });
        if (!silent && !isSessionEnded(err)) toast.error(errorText(err, 'Failed to load data'));
        return false;
      }
    },

    create: async (input) => {
      try {
        const { auction } = await adminApi.createAuction(input);
        set((s) => ({ auctions: [auction, ...s.auctions.filter((a) => a.id !== auction.id)] }));
        toast.success('Auction created successfully!');
        changed();
        return true;
      } catch (err) {
        toast.error(errorText(err, 'Failed to create auction'));
        return false;
      }
    },

    update: (id, input) => withBusy(id, async () => {
      try {
        const { auction } = await adminApi.updateAuction(id, input);
        set((s) => ({ auctions: s.auctions.map((a) => (a.id === id ? auction : a)) }));
        toast.success('Auction updated successfully!');
        changed();
        return auction;
      } catch (err) {
        toast.error(errorText(err, 'Failed to update auction'));
        return null;
      }
    }),

    remove: (id) => withBusy(id, async () => {
      try {
        await adminApi.deleteAuction(id);
        set((s) => ({ auctions: s.auctions.filter((a) => a.id !== id) }));
        toast.success('Auction deleted successfully!');
        changed();
        return true;
      } catch (err) {
        toast.error(errorText(err, 'Failed to delete auction'));
        return false;
      }
    }),

    settle: (id) => withBusy(id, async () => {
      try {
        await adminApi.settleAuction(id);
        toast.success('Auction settled successfully!');
        changed();
        // The server moved the end to now and returned unsold products to unassigned: read it back.
        const fresh = await adminApi.auction(id).catch(() => null);
        set((s) => ({
          auctions: s.auctions.map((a) => (a.id !== id ? a : fresh ?? { ...a, status: 'settled' as const })),
        }));
        return true;
      } catch (err) {
        toast.error(errorText(err, 'Failed to settle auction'));
        // Already settled elsewhere (409 AUCTION_SETTLED): show what is true now.
        if (err instanceof ApiError && err.code === 'AUCTION_SETTLED') {
          set((s) => ({ auctions: s.auctions.map((a) => (a.id === id ? { ...a, status: 'settled' as const } : a)) }));
        }
        return false;
      }
    }),

    applyLive: (e) => {
      if (e.event === 'auction:ended' || e.event === 'auction:settled') {
        const status = e.event === 'auction:settled' ? 'settled' : 'ended';
        const { auction_id } = e.data;
        const current = get().auctions.find((a) => a.id === auction_id);
        if (!current || current.status === 'settled' || current.status === status) return;
        set((s) => ({ auctions: s.auctions.map((a) => (a.id === auction_id ? { ...a, status } : a)) }));
      } else if (e.event === 'auction:deleted') {
        if (get().auctions.some((a) => a.id === e.data.id)) set((s) => ({ auctions: s.auctions.filter((a) => a.id !== e.data.id) }));
      } else if (e.event === 'auction:updated') {
        const d = e.data;
        if (get().auctions.some((a) => a.id === d.id)) {
          set((s) => ({
            auctions: s.auctions.map((a) => (a.id === d.id
              ? { ...a, name: d.name, valid_until: d.valid_until, product_count: d.product_count, status: d.status }
              : a)),
          }));
          reloadTimer ??= setTimeout(() => {
            reloadTimer = null;
            if (get().status === 'ready') void get().load({ silent: true });
          }, RELOAD_MS);
        }
      }
    },

    reset: () => {
      loadSeq += 1;
      if (reloadTimer) clearTimeout(reloadTimer);
      reloadTimer = null;
      set({ auctions: [], status: 'idle', busy: {}, version: 0 });
    },
  };
});

onLive((e) => useAdminAuctions.getState().applyLive(e));
// An auction that ended or settled while the socket was down: read the list again (docs/live-protocol.md#reconnecting).
onReconnect(() => {
  const s = useAdminAuctions.getState();
  if (s.status !== 'idle') void s.load({ silent: true });
});
useSession.subscribe((s, prev) => {
  if (s.admin?.id !== prev.admin?.id) useAdminAuctions.getState().reset();
});
