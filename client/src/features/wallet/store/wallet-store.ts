/**
 * The caller's wallet: balance and holds (POST /wallet: `wallet_balance`, `on_hold`) and ledger
 * (GET /wallet/transactions) as resources of lib/resource.ts, and the top-up action. A live
 * `wallet:updated` sets the balance at once and re-reads the holds (the event carries only the balance,
 * and what the leading bids hold moves with it) and the ledger; a reconnect, after which updates may
 * have been missed (docs/live-protocol.md#reconnecting), reads both again. When the balance call fails
 * the balance is derived from the ledger (docs/money.md) and the holds are unknown; with neither the
 * balance is unknown too (null, shown as a dash).
 */
import { create } from 'zustand';
import { toPaise, toRupees, type LedgerTotals, type Transaction } from '@auction/shared';
import { errorText } from '../../../lib/api-client';
import { createResource, invalidate, useResource, type Resource } from '../../../lib/resource';
import { onLive, onReconnect, type LiveEvent } from '../../../lib/live';
import { fetchBalance, fetchLedgerPage, postTopUp, type WalletFigures } from '../api/wallet-api';
import { balanceFromLedger, validateTopUp, withFirstPage, withOlderPage, type Ledger } from '../model';

export type ActionResult = { ok: true } | { ok: false; error: string };

export const TOPUP_FAILED = 'Top-up failed';
export const LEDGER_FAILED = 'Could not load your transactions';
export const REFETCH_DELAY_MS = 300;

export type { WalletFigures };

/** The caller's balance and what their leading bids hold, in rupees. */
export const walletBalance = createResource<void, WalletFigures>('wallet-balance', () => fetchBalance());
/**
 * The caller's ledger as shown: its newest page, the older pages "Load more" added, and the whole
 * ledger's totals. Read again (a live change, a reconnect), the newest page is read and the older rows
 * shown stay below it (withFirstPage).
 */
export const walletLedger: Resource<void, Ledger> = createResource<void, Ledger>('wallet-ledger', async (): Promise<Ledger> => withFirstPage(walletLedger.get().data, await fetchLedgerPage()));

/** Reads the page older than the last row shown and adds it below. */
export async function loadMoreTransactions(): Promise<void> {
  const before = walletLedger.get().data?.nextBefore;
  if (before === null || before === undefined) return;
  const page = await fetchLedgerPage({ before });
  walletLedger.patch(undefined, (ledger) => withOlderPage(ledger, page, before));
}

const NO_TRANSACTIONS: Transaction[] = [];

export interface WalletView {
  balance: number | null;
  /** Where the balance came from: the server (call or live event) or the ledger fallback. */
  balanceSource: 'server' | 'ledger' | null;
  /** Held by the caller's leading bids; null while unknown (the balance call failed or has not answered). */
  onHold: number | null;
  /** The rows loaded so far, newest first. */
  transactions: Transaction[];
  /** The whole ledger's totals (the server's), null until read. */
  totals: LedgerTotals | null;
  /** Older rows are there to load ("Load more"). */
  more: boolean;
  /** True once a ledger has come from the server (an empty one included). */
  loaded: boolean;
  /** The ledger is being read. */
  loading: boolean;
  /** The last ledger read's error text, cleared by the next success. */
  error: string | null;
  /** Reads balance and ledger again. */
  reload: () => void;
}

// Counts the balances set (live events, write answers): a balance set while a top-up was on its way
// is not overwritten by the top-up's answer, which may be older.
let balanceSets = 0;

/**
 * The balance from the server, else worked out from the ledger when the balance call failed, else
 * unknown; the holds only from the server (the ledger cannot tell what is held from what was paid).
 */
export function walletBalanceOf(
  balance: { data: WalletFigures | undefined; status: string },
  ledger: { data: Ledger | undefined; status: string },
): Pick<WalletView, 'balance' | 'balanceSource' | 'onHold'> {
  if (balance.data !== undefined) return { balance: balance.data.wallet_balance, balanceSource: 'server', onHold: balance.data.on_hold };
  if (balance.status === 'error' && ledger.data !== undefined) return { balance: balanceFromLedger(ledger.data.totals), balanceSource: 'ledger', onHold: null };
  return { balance: null, balanceSource: null, onHold: null };
}

/**
 * A balance known to be newer than any answer on its way (a write's answer, a live event): shown at
 * once, the holds kept as they were. With `holdsChanged` (a bid, a refund, a live `wallet:updated`)
 * the wallet on screen is read again shortly, so On hold follows; a top-up leaves the holds alone.
 */
export function setWalletBalance(amount: number, { holdsChanged = true }: { holdsChanged?: boolean } = {}): void {
  balanceSets++;
  walletBalance.set(undefined, { wallet_balance: amount, on_hold: walletBalance.get().data?.on_hold ?? null });
  if (holdsChanged) invalidate(walletBalance.name, REFETCH_DELAY_MS);
}

/** The wallet for a page: balance and ledger read on mount and kept current. */
export function useWalletView(): WalletView {
  const balance = useResource(walletBalance, undefined);
  const ledger = useResource(walletLedger, undefined);
  const { refetch: refetchBalance } = balance;
  const { refetch: refetchLedger } = ledger;
  return {
    ...walletBalanceOf(balance, ledger),
    transactions: ledger.data?.transactions ?? NO_TRANSACTIONS,
    totals: ledger.data?.totals ?? null,
    more: (ledger.data?.nextBefore ?? null) !== null,
    loaded: ledger.data !== undefined,
    loading: ledger.fetching,
    error: ledger.error === undefined ? null : errorText(ledger.error, LEDGER_FAILED),
    reload: () => {
      void refetchBalance();
      void refetchLedger();
    },
  };
}

export interface TopUpState {
  toppingUp: boolean;
  topUp: (amount: number) => Promise<ActionResult>;
}

export const useTopUp = create<TopUpState>()((set, get) => ({
  toppingUp: false,

  topUp: async (amount) => {
    const check = validateTopUp(amount);
    if (!check.ok) return check;
    if (get().toppingUp) return { ok: false, error: TOPUP_FAILED };
    const before = balanceSets;
    set({ toppingUp: true });
    try {
      const res = await postTopUp(check.amount);
      if (before === balanceSets) setWalletBalance(res.wallet_balance, { holdsChanged: false });
      // Another balance came meanwhile and may be older or newer than this answer: read it again.
      else invalidate(walletBalance.name, REFETCH_DELAY_MS);
      walletLedger.patch(undefined, (ledger) => (ledger.transactions.some((t) => t._id === res.transaction._id) ? ledger : {
        ...ledger,
        transactions: [res.transaction, ...ledger.transactions],
        totals: { ...ledger.totals, topup: toRupees(toPaise(ledger.totals.topup) + toPaise(res.transaction.amount)), count: ledger.totals.count + 1 },
      }));
      set({ toppingUp: false });
      invalidate(walletLedger.name, REFETCH_DELAY_MS);
      return { ok: true };
    } catch (err) {
      set({ toppingUp: false });
      return { ok: false, error: errorText(err, TOPUP_FAILED) };
    }
  },
}));

/** Applies one personal event (exported for tests; the store listens by itself). */
export function handleWalletLiveEvent(e: LiveEvent): void {
  if (e.event !== 'wallet:updated') return;
  // The event carries the balance alone: On hold (which moves with it) and the ledger are read again.
  setWalletBalance(e.data.wallet_balance);
  invalidate(walletLedger.name, REFETCH_DELAY_MS);
}

onLive(handleWalletLiveEvent);

// After a reconnect the wallet on screen is read again.
onReconnect(() => {
  invalidate(walletBalance.name);
  invalidate(walletLedger.name);
});
