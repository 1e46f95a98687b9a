import { useEffect, useRef } from 'react';
import type { Auction, LedgerTotals, LiveAuction, Transaction, UserBid } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { myBids, REFETCH_DELAY_MS as BIDS_REFETCH_MS } from '../../../lib/account/my-bids';
import { walletBalance } from '../../../lib/account/wallet-balance';
import { walletBalanceOf, walletLedger } from '../../../lib/account/wallet-ledger';
import { exhaustive, onLive, onReconnect, type LiveEvent } from '../../../lib/live';
import { invalidateSoon } from '../../../lib/live-query';
import { useServerQuery, type ServerState } from '../../../lib/query';
import { queryRoots } from '../../../lib/query-keys';
import { dashboardAuctions } from '../api/dashboard-api';

export interface DashboardState {
  loading: boolean;
  auctions: Auction[];
  bids: UserBid[];
  /** The ledger's newest rows. */
  transactions: Transaction[];
  /** The whole ledger's totals, null while unknown. */
  totals: LedgerTotals | null;
  /** The wallet balance, null while unknown. */
  balance: number | null;
}

// A live change to the wallet arrives as a burst of events; the bids are read again once after it settles.
const REFRESH_DELAY_MS = BIDS_REFETCH_MS;

function fromLive(a: LiveAuction, previous?: Auction): Auction {
  return {
    id: a.id,
    name: a.name,
    valid_until: a.valid_until,
    product_ids: previous?.product_ids ?? [],
    product_count: a.product_count,
    status: a.status,
    original_valid_until: a.original_valid_until,
    increment_rule: a.increment_rule,
    increment_amount: a.increment_amount,
    increment_tiers: a.increment_tiers,
    cancel_policy: a.cancel_policy,
    soft_close_s: a.soft_close_s,
    max_extension_s: a.max_extension_s,
    extended: a.extended,
    // Live auction events leave out the per-caller fields; keep what we knew (docs/live-protocol.md).
    registered: previous?.registered ?? false,
    registrations: previous?.registrations ?? [],
    // Nor prices and photos: the next read of the list has them.
    highest_bid: previous?.highest_bid ?? 0,
    bid_count: previous?.bid_count ?? 0,
    cover: previous?.cover ?? null,
  };
}

/** One catalogue event folded into the list (other events return the same list). */
function applyCatalogueEvent(auctions: Auction[], e: LiveEvent): Auction[] {
  switch (e.event) {
    case 'auction:created':
      return auctions.some((a) => a.id === e.data.id) ? auctions : [fromLive(e.data), ...auctions];
    case 'auction:updated':
      return auctions.map((a) => (a.id === e.data.id ? fromLive(e.data, a) : a));
    case 'auction:extended': {
      // Soft close moved the end (Ending Soon and the end date follow): the summary sent to every socket,
      // or the room event of a watched auction (its new end alone).
      const moved = e.data;
      const id = 'id' in moved ? moved.id : moved.auction_id;
      if (!auctions.some((a) => a.id === id)) return auctions;
      return auctions.map((a) => {
        if (a.id !== id) return a;
        return 'id' in moved ? fromLive(moved, a) : { ...a, valid_until: moved.valid_until, original_valid_until: moved.original_valid_until, extended: true };
      });
    }
    case 'auction:deleted':
      return auctions.filter((a) => a.id !== e.data.id);
    case 'bid:placed':
    case 'bid:rolledback':
    case 'product:sold':
    case 'auction:ending':
    case 'auction:ended':
    case 'auction:settled':
    case 'auction:watchers':
    case 'bid:outbid':
    case 'bid:reinstated':
    case 'bid:won':
    case 'wallet:updated':
    case 'notification:new':
      return auctions;
    default:
      return exhaustive(e, auctions);
  }
}

// Catalogue events fold into the list shown and into a reply on its way (read before them).
onLive((e) => {
  if (e.event === 'auction:created' || e.event === 'auction:updated' || e.event === 'auction:extended' || e.event === 'auction:deleted') {
    dashboardAuctions.patch(undefined, (list) => applyCatalogueEvent(list, e));
  }
});
// Events sent while the socket was down are lost: read the list again (bids and wallet re-read themselves).
onReconnect(() => invalidateSoon(queryRoots.dashboardAuctions));

const NO_TRANSACTIONS: Transaction[] = [];

const settled = (r: Pick<ServerState<unknown>, 'status'>) => r.status === 'success' || r.status === 'error';

/**
 * The dashboard's data: the auctions, the caller's bids, balance and ledger (the last three shared with
 * the bids and wallet pages), read in parallel and kept current by live events (the balance at once
 * from `wallet:updated`, bids and ledger by a quiet re-read, auctions from catalogue events) and read
 * again after a reconnect. A failed read counts as an empty list; all four failing says so once.
 */
export function useDashboardData(): DashboardState {
  const auctions = useServerQuery(dashboardAuctions.options());
  const bids = useServerQuery(myBids.options());
  const ledger = useServerQuery(walletLedger.options());
  const balance = useServerQuery(walletBalance.options());
  const all = [auctions, bids, ledger, balance];
  const loading = !all.every(settled);

  // After a 401 the session is over and the visitor is on the way home (no error is kept): no toast for that.
  const everythingFailed = all.every((r) => r.status === 'error' && r.error !== undefined);
  const told = useRef(false);
  useEffect(() => {
    if (everythingFailed && !told.current) toast.error('Failed to load dashboard stats.');
    told.current = everythingFailed;
  }, [everythingFailed]);

  // The bids page's patches follow bid events; a wallet change may also mean a bid changed.
  useEffect(() => onLive((e) => {
    if (e.event === 'wallet:updated') invalidateSoon(queryRoots.myBids, REFRESH_DELAY_MS);
  }), []);

  return {
    loading,
    auctions: auctions.data ?? [],
    bids: bids.data ?? [],
    transactions: ledger.data?.transactions ?? NO_TRANSACTIONS,
    totals: ledger.data?.totals ?? null,
    balance: walletBalanceOf(balance, ledger).balance,
  };
}
