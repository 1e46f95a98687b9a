import { useEffect, useRef, useState } from 'react';
import type { Auction, LiveAuction, Transaction, UserBid } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { isSessionEnded } from '../../../lib/api-client';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { dashboardApi, loadDashboard } from '../api/dashboard-api';
import { balanceFromTransactions } from '../stats';

export interface DashboardState {
  loading: boolean;
  auctions: Auction[];
  bids: UserBid[];
  transactions: Transaction[];
  /** The wallet balance, null while unknown. */
  balance: number | null;
}

const EMPTY: DashboardState = { loading: true, auctions: [], bids: [], transactions: [], balance: null };

// A live change to the wallet or a bid arrives as a burst of events; refetch once after it settles.
const REFRESH_DELAY_MS = 300;

function fromLive(a: LiveAuction, previous?: Auction): Auction {
  return {
    id: a.id,
    name: a.name,
    valid_until: a.valid_until,
    product_ids: previous?.product_ids ?? [],
    product_count: a.product_count,
    status: a.status,
    // Live auction events leave out the per-caller fields; keep what we knew (docs/live-protocol.md).
    registered: previous?.registered ?? false,
    registrations: previous?.registrations ?? [],
  };
}

/** One catalogue event folded into the list (other events return the same list). */
function applyCatalogueEvent(auctions: Auction[], e: LiveEvent): Auction[] {
  switch (e.event) {
    case 'auction:created':
      return auctions.some((a) => a.id === e.data.id) ? auctions : [fromLive(e.data), ...auctions];
    case 'auction:updated':
      return auctions.map((a) => (a.id === e.data.id ? fromLive(e.data, a) : a));
    case 'auction:deleted':
      return auctions.filter((a) => a.id !== e.data.id);
    default:
      return auctions;
  }
}

/**
 * The dashboard's data: the four reads in parallel, then kept current by live events (the balance at
 * once from `wallet:updated`, bids and ledger by a quiet refetch, auctions from catalogue events), and
 * all four read again quietly after a reconnect (events sent while the socket was down are lost).
 */
export function useDashboardData(): DashboardState {
  const [state, setState] = useState<DashboardState>(EMPTY);
  const liveBalance = useRef<number | null>(null);

  useEffect(() => {
    const ctrl = new AbortController();
    void loadDashboard(ctrl.signal).then((data) => {
      if (ctrl.signal.aborted) return;
      const everythingFailed = Object.values(data.failed).every(Boolean);
      // After a 401 the session is over and the visitor is on the way home: no toast for that.
      if (everythingFailed && !data.errors.some(isSessionEnded)) toast.error('Failed to load dashboard stats.');
      const fallback = data.failed.transactions ? null : balanceFromTransactions(data.transactions);
      setState({
        loading: false,
        auctions: data.auctions,
        bids: data.bids,
        transactions: data.transactions,
        balance: liveBalance.current ?? data.balance ?? fallback,
      });
    });
    return () => ctrl.abort();
  }, []);

  useEffect(() => {
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;

    const refresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        // Keep what is shown when a refresh fails; the next event tries again.
        void dashboardApi.bids(ctrl.signal).then((bids) => setState((s) => ({ ...s, bids })), () => undefined);
        void dashboardApi.transactions(ctrl.signal).then((transactions) => setState((s) => ({ ...s, transactions })), () => undefined);
      }, REFRESH_DELAY_MS);
    };

    // Reconnect re-reads: a balance read before a later `wallet:updated` is stale; catalogue events that
    // arrive while the auctions are read are replayed over the answer.
    let balanceSeq = 0;
    let auctionsSeq = 0;
    const inflight = new Set<LiveEvent[]>();

    const reread = () => {
      refresh();
      const myBalance = ++balanceSeq;
      void dashboardApi.balance(ctrl.signal).then((balance) => {
        if (myBalance !== balanceSeq) return;
        liveBalance.current = balance;
        setState((s) => ({ ...s, balance }));
      }, () => undefined);
      const myAuctions = ++auctionsSeq;
      const buffer: LiveEvent[] = [];
      inflight.add(buffer);
      void dashboardApi.auctions(ctrl.signal).then((list) => {
        if (myAuctions === auctionsSeq) setState((s) => ({ ...s, auctions: buffer.reduce(applyCatalogueEvent, list) }));
      }, () => undefined).finally(() => inflight.delete(buffer));
    };

    const stopReconnect = onReconnect(reread);
    const stop = onLive((e) => {
      switch (e.event) {
        case 'wallet:updated':
          balanceSeq++;
          liveBalance.current = e.data.wallet_balance;
          setState((s) => ({ ...s, balance: e.data.wallet_balance }));
          refresh();
          break;
        case 'bid:outbid':
        case 'bid:reinstated':
        case 'bid:won':
          refresh();
          break;
        case 'auction:created':
        case 'auction:updated':
        case 'auction:deleted':
          for (const buffer of inflight) buffer.push(e);
          setState((s) => {
            const auctions = applyCatalogueEvent(s.auctions, e);
            return auctions === s.auctions ? s : { ...s, auctions };
          });
          break;
        default:
          break;
      }
    });
    return () => {
      stop();
      stopReconnect();
      clearTimeout(timer);
      ctrl.abort();
    };
  }, []);

  return state;
}
