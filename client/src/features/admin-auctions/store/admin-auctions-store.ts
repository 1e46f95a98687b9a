/**
 * The signed-in admin's own auctions (GET /admin/auctions/my, the `myAuctionsQuery` of api/queries.ts;
 * management pages show only the admin's own auctions), with the create, edit, delete and settle flows
 * beside them. The dashboard's card and Manage Auctions share it. Writes and the admin room's live
 * events patch the list (`patchQuery`), and so the reply on its way too, which may have been read
 * before them; `auction:updated` carries no product list, so a burst of them reads the list again once;
 * a reconnect reads it again when it is shown; the session store's reset forgets it. Only the buttons'
 * busy marks live in the zustand store.
 */
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';
import { isCancelledError, type QueryState } from '@tanstack/react-query';
import type { AdminAuction, CreateAuctionBody, Settled, UpdateAuctionBody } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText, isSessionEnded } from '../../../lib/api-client';
import { productsChanged } from '../../../lib/admin-products';
import { invalidateSoon, patchQuery } from '../../../lib/live-query';
import { runMutation, useServerQuery, type ServerStatus } from '../../../lib/query';
import { queryClient } from '../../../lib/query-client';
import { onLive, onReconnect, type LiveEvent } from '../../../lib/live';
import { adminApi } from '../api/admin-api';
import { myAuctionsKey, myAuctionsQuery } from '../api/queries';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** A settle's answer (what sold for how much, what did not and why) and the auction read back after it (null if that read failed). */
export interface SettleOutcome {
  answer: Settled;
  auction: AdminAuction | null;
}

export interface AdminAuctionsState {
  /** The list as last read (and patched since); empty before the first answer. */
  auctions: AdminAuction[];
  status: LoadStatus;
  /** Auction ids with a change on its way (buttons wait for it). */
  busy: Record<string, boolean>;
  /** Reads the list (sharing a read in flight); a failure is toasted unless `silent`. */
  load: (options?: { silent?: boolean }) => Promise<boolean>;
  create: (input: CreateAuctionBody) => Promise<boolean>;
  update: (id: string, input: UpdateAuctionBody) => Promise<AdminAuction | null>;
  remove: (id: string) => Promise<boolean>;
  settle: (id: string) => Promise<SettleOutcome | null>;
  applyLive: (e: AdminAuctionsEvent) => void;
  /** Forgets the busy marks (tests); the list is forgotten with the query cache alone. */
  reset: () => void;
}

/** `auction:updated` carries no product list: the list is read again, once per burst of edits. */
export const RELOAD_MS = 250;

const NO_AUCTIONS: AdminAuction[] = [];
const LOAD_STATUS: Record<ServerStatus, LoadStatus> = { idle: 'idle', loading: 'loading', success: 'ready', error: 'error' };

/** A change to the list shown and to the reply on its way (nothing before the first read). */
const changeList = (change: (list: AdminAuction[]) => AdminAuction[]) => patchQuery(myAuctionsKey, change);

/** The list read again (once per burst, with `delayMs`), dropping a read on its way that was read before. */
let rereadTimer: ReturnType<typeof setTimeout> | undefined;
function rereadList(delayMs = 0): void {
  clearTimeout(rereadTimer);
  rereadTimer = undefined;
  if (delayMs > 0) rereadTimer = setTimeout(() => rereadList(), delayMs);
  else invalidateSoon(myAuctionsKey);
}

/** One auction changed; the same list back when it is not there or `change` leaves it as it is. */
function changeOne(id: string, change: (a: AdminAuction) => AdminAuction): void {
  changeList((list) => {
    const i = list.findIndex((a) => a.id === id);
    const current = list[i];
    if (!current) return list;
    const next = change(current);
    if (next === current) return list;
    const copy = list.slice();
    copy[i] = next;
    return copy;
  });
}

const markEnded = (status: 'ended' | 'settled') => (a: AdminAuction): AdminAuction =>
  (a.status === 'settled' || a.status === status ? a : { ...a, status });

/** The events that change the list: an auction ended, settled, extended, deleted or edited. */
const ADMIN_AUCTIONS_EVENTS = ['auction:ended', 'auction:settled', 'auction:extended', 'auction:deleted', 'auction:updated'] as const;
export type AdminAuctionsEvent = LiveEvent<(typeof ADMIN_AUCTIONS_EVENTS)[number]>;

/** Applies one live event to the list (exported for tests; the store listens by itself). */
export function handleAdminAuctionsLiveEvent(e: AdminAuctionsEvent): void {
  if (e.event === 'auction:ended' || e.event === 'auction:settled') {
    changeOne(e.data.auction_id, markEnded(e.event === 'auction:settled' ? 'settled' : 'ended'));
  } else if (e.event === 'auction:extended') {
    // Soft close moved the end (the admin room's event and every socket's catalogue event say the same).
    const d = e.data;
    changeOne(d.auction_id, (a) => (a.valid_until === d.valid_until && a.extended
      ? a
      : { ...a, valid_until: d.valid_until, original_valid_until: d.original_valid_until, extended: true }));
  } else if (e.event === 'auction:deleted') {
    const { id } = e.data;
    changeList((list) => (list.some((a) => a.id === id) ? list.filter((a) => a.id !== id) : list));
  } else if (e.event === 'auction:updated') {
    // Every socket gets it: only one of this admin's auctions (shown, or maybe in the reply on its way) matters.
    const d = e.data;
    const state = queryClient.getQueryState<AdminAuction[]>(myAuctionsKey);
    if (state?.fetchStatus !== 'fetching' && !state?.data?.some((a) => a.id === d.id)) return;
    changeOne(d.id, (a) => ({
      ...a, name: d.name, valid_until: d.valid_until, product_count: d.product_count, status: d.status,
      original_valid_until: d.original_valid_until, increment_rule: d.increment_rule, increment_amount: d.increment_amount,
      increment_tiers: d.increment_tiers, cancel_policy: d.cancel_policy, soft_close_s: d.soft_close_s,
      max_extension_s: d.max_extension_s, extended: d.extended,
    }));
    rereadList(RELOAD_MS);
  }
}

type Actions = Omit<AdminAuctionsState, 'auctions' | 'status'>;

/** The busy marks and the actions: no server data. */
export const useAdminAuctionActions = create<Actions>()((set) => {
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

  // Every write moves products in or out of auctions: the product lists the admin pages hold are read again.
  const changed = () => productsChanged();

  return {
    busy: {},

    load: async ({ silent = false } = {}) => {
      try {
        await queryClient.fetchQuery({ ...myAuctionsQuery(), staleTime: 0 });
        return true;
      } catch (err) {
        // Dropped for a newer read (a burst of edits, a reconnect, another account): not a failure.
        if (isCancelledError(err)) return false;
        if (!silent && !isSessionEnded(err)) toast.error(errorText(err, 'Failed to load data'));
        return false;
      }
    },

    create: (input) => runMutation({
      mutationFn: (body: CreateAuctionBody) => adminApi.createAuction(body),
      onSuccess: ({ auction }) => {
        changeList((list) => [auction, ...list.filter((a) => a.id !== auction.id)]);
        toast.success('Auction created successfully!');
        changed();
      },
      onError: (err) => toast.error(errorText(err, 'Failed to create auction')),
    }, input).then(() => true, () => false),

    update: (id, input) => withBusy(id, () => runMutation({
      mutationFn: (body: UpdateAuctionBody) => adminApi.updateAuction(id, body),
      onSuccess: ({ auction }) => {
        changeOne(id, () => auction);
        toast.success('Auction updated successfully!');
        changed();
      },
      onError: (err) => toast.error(errorText(err, 'Failed to update auction')),
    }, input).then(({ auction }) => auction, () => null)),

    remove: (id) => withBusy(id, () => runMutation({
      mutationFn: (auctionId: string) => adminApi.deleteAuction(auctionId),
      onSuccess: () => {
        changeList((list) => list.filter((a) => a.id !== id));
        toast.success('Auction deleted successfully!');
        changed();
      },
      onError: (err) => toast.error(errorText(err, 'Failed to delete auction')),
    }, id).then(() => true, () => false)),

    settle: (id) => withBusy(id, () => runMutation({
      mutationFn: async (auctionId: string): Promise<SettleOutcome> => {
        const answer = await adminApi.settleAuction(auctionId);
        // The server moved the end to now and returned unsold products to unassigned: read it back.
        const auction = await adminApi.auction(auctionId).catch(() => null);
        return { answer, auction };
      },
      onSuccess: ({ auction }) => {
        toast.success('Auction settled successfully!');
        changed();
        changeOne(id, (a) => auction ?? { ...a, status: 'settled' as const });
      },
      onError: (err) => {
        toast.error(errorText(err, 'Failed to settle auction'));
        // Already settled elsewhere (409 AUCTION_SETTLED): show what is true now.
        if (err instanceof ApiError && err.code === 'AUCTION_SETTLED') changeOne(id, markEnded('settled'));
      },
    }, id).catch(() => null)),

    applyLive: handleAdminAuctionsLiveEvent,

    reset: () => set({ busy: {} }),
  };
});

function view(list: { data: AdminAuction[] | undefined; status: ServerStatus }, actions: Actions): AdminAuctionsState {
  return { ...actions, auctions: list.data ?? NO_AUCTIONS, status: LOAD_STATUS[list.status] };
}

const subscribeToCache = (listener: () => void) => queryClient.getQueryCache().subscribe(listener);
const readList = () => queryClient.getQueryState<AdminAuction[]>(myAuctionsKey);

/** The list's state as `useServerQuery` reports it. */
function statusOf(state: QueryState<AdminAuction[]> | undefined): ServerStatus {
  if (state?.data !== undefined) return 'success';
  if (state?.status === 'error') return 'error';
  return state?.fetchStatus === 'fetching' ? 'loading' : 'idle';
}

function useAdminAuctionsState(): AdminAuctionsState;
function useAdminAuctionsState<U>(selector: (s: AdminAuctionsState) => U): U;
function useAdminAuctionsState<U>(selector?: (s: AdminAuctionsState) => U): U | AdminAuctionsState {
  // Shown: read on mount (a `load()` made meanwhile shares the read) and again when invalidated; the
  // pages' own `load()` says when a read failed.
  useServerQuery(myAuctionsQuery());
  // The list as the cache holds it, at once: a live change shows in the same render pass, and a reset
  // (another account) leaves nothing shown.
  const state = useSyncExternalStore(subscribeToCache, readList, readList);
  const actions = useAdminAuctionActions();
  const shown = view({ data: state?.data, status: statusOf(state) }, actions);
  return selector ? selector(shown) : shown;
}

/**
 * The list and the actions in a component, zustand style (`useAdminAuctions((s) => s.auctions)`), and
 * `useAdminAuctions.getState()` outside React. A component using it shows the list (a reconnect or a
 * burst of edits reads it again); one that only needs the actions uses `useAdminAuctionActions`.
 */
export const useAdminAuctions = Object.assign(useAdminAuctionsState, {
  getState: (): AdminAuctionsState => {
    const state = readList();
    return view({ data: state?.data, status: statusOf(state) }, useAdminAuctionActions.getState());
  },
});

onLive(ADMIN_AUCTIONS_EVENTS, (_data, e) => handleAdminAuctionsLiveEvent(e));
// An auction that ended or settled while the socket was down: the list shown is read again (docs/live-protocol.md#reconnecting).
onReconnect(() => rereadList());
