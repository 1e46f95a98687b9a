import { useEffect, useRef } from 'react';
import type { AuctionCard, LedgerTotals, Transaction, UserBid } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { myBids, REFETCH_DELAY_MS as BIDS_REFETCH_MS } from '../../../lib/account/my-bids';
import { walletBalance } from '../../../lib/account/wallet-balance';
import { walletBalanceOf, walletLedger } from '../../../lib/account/wallet-ledger';
import { onLive, onReconnect } from '../../../lib/live';
import { invalidateSoon } from '../../../lib/live-query';
import { useServerQuery, type ServerState } from '../../../lib/query';
import { queryRoots } from '../../../lib/query-keys';
import { dashboardAuctions, registeredAuctions } from '../api/dashboard-api';

export interface DashboardState {
  loading: boolean;
  /** The newest open auctions (Recent Auctions). */
  auctions: AuctionCard[];
  /** Open auctions, and those ending within 24 hours: the server's counts; 0 while unknown. */
  activeAuctions: number;
  endingSoon: number;
  /** How many auctions the caller registered for. */
  registeredAuctions: number;
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
/** Catalogue events come in bursts (an admin's edits): the page of auctions is read once after one settles. */
export const AUCTIONS_REREAD_MS = 500;
/**
 * The counts change with the clock too (an auction ends, another enters its last 24 hours), which no
 * event every socket hears announces: the page of auctions is read again this often while shown.
 */
export const AUCTIONS_REFRESH_MS = 60_000;

// A catalogue event (every socket hears them) may change the newest auctions or the counts: read the page again.
onLive(['auction:created', 'auction:updated', 'auction:extended', 'auction:deleted'], () => invalidateSoon(queryRoots.dashboardAuctions, AUCTIONS_REREAD_MS));
// Events sent while the socket was down are lost: read the auctions again (bids and wallet re-read themselves).
onReconnect(() => {
  invalidateSoon(queryRoots.dashboardAuctions);
  invalidateSoon(queryRoots.registeredAuctions);
});

const NO_TRANSACTIONS: Transaction[] = [];
const NO_AUCTIONS: AuctionCard[] = [];
const NO_BIDS: UserBid[] = [];

const settled = (r: Pick<ServerState<unknown>, 'status'>) => r.status === 'success' || r.status === 'error';

/**
 * The dashboard's data: a page of the catalogue (the newest open auctions and the counts per tab), the
 * caller's registrations, bids, balance and ledger (the last three shared with the bids and wallet
 * pages), read in parallel and kept current: the balance at once from `wallet:updated`, bids and ledger
 * by a quiet re-read, the auctions read again after catalogue events and every AUCTIONS_REFRESH_MS; all
 * read again after a reconnect. A failed read counts as empty; all of them failing says so once.
 */
export function useDashboardData(): DashboardState {
  const auctions = useServerQuery(dashboardAuctions.options(), { refetchMs: AUCTIONS_REFRESH_MS });
  const registered = useServerQuery(registeredAuctions.options());
  const bids = useServerQuery(myBids.options());
  const ledger = useServerQuery(walletLedger.options());
  const balance = useServerQuery(walletBalance.options());
  const all = [auctions, registered, bids, ledger, balance];
  const loading = !all.every(settled);

  // After a 401 the session is over and the visitor is on the way home (no error is kept): no toast for that.
  const everythingFailed = all.every((r) => r.status === 'error' && r.error !== undefined);
  const told = useRef(false);
  useEffect(() => {
    if (everythingFailed && !told.current) toast.error('Failed to load dashboard stats.');
    told.current = everythingFailed;
  }, [everythingFailed]);

  // The bids page's patches follow bid events; a wallet change may also mean a bid changed.
  useEffect(() => onLive('wallet:updated', () => invalidateSoon(queryRoots.myBids, REFRESH_DELAY_MS)), []);

  return {
    loading,
    auctions: auctions.data?.items ?? NO_AUCTIONS,
    activeAuctions: auctions.data?.counts.active ?? 0,
    endingSoon: auctions.data?.counts.ending ?? 0,
    registeredAuctions: registered.data?.length ?? 0,
    bids: bids.data ?? NO_BIDS,
    transactions: ledger.data?.transactions ?? NO_TRANSACTIONS,
    totals: ledger.data?.totals ?? null,
    balance: walletBalanceOf(balance, ledger).balance,
  };
}
