/**
 * The caller's wallet page: balance and holds (lib/account/wallet-balance.ts) and ledger
 * (lib/account/wallet-ledger.ts, which also folds in the live `wallet:updated`), as TanStack queries,
 * and the top-up, a mutation whose answer is news newer than the page: it sets the balance (unless a
 * newer one came meanwhile) and puts its row on top of the ledger.
 */
import { create } from 'zustand';
import { toPaise, toRupees, type LedgerTotals, type ToppedUp, type Transaction } from '@auction/shared';
import { errorText } from '../../../lib/api-client';
import { balanceSetCount, setWalletBalance, walletBalance, type WalletFigures } from '../../../lib/account/wallet-balance';
import { handleWalletLiveEvent, LEDGER_REFETCH_DELAY_MS, walletBalanceOf, walletLedger } from '../../../lib/account/wallet-ledger';
import { withOlderPage, validateTopUp } from '../../../lib/account/wallet-model';
import { invalidateSoon } from '../../../lib/live-query';
import { runMutation, useServerQuery } from '../../../lib/query';
import { queryRoots } from '../../../lib/query-keys';
import { fetchLedgerPage, postTopUp } from '../api/wallet-api';

export { walletBalance, walletLedger, walletBalanceOf, setWalletBalance, handleWalletLiveEvent };

export type ActionResult = { ok: true } | { ok: false; error: string };

export const TOPUP_FAILED = 'Top-up failed';
export const LEDGER_FAILED = 'Could not load your transactions';
export const REFETCH_DELAY_MS = LEDGER_REFETCH_DELAY_MS;

export type { WalletFigures };

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

/** The wallet for a page: balance and ledger read on mount and kept current. */
export function useWalletView(): WalletView {
  const balance = useServerQuery(walletBalance.options());
  const ledger = useServerQuery(walletLedger.options());
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

/** POST /wallet/topup: the balance from the answer (unless a newer one came meanwhile), its row on top of the ledger. */
function topUpMutation(balanceSetsBefore: number) {
  return {
    mutationKey: ['top-up'],
    mutationFn: (amount: number) => postTopUp(amount),
    onSuccess: (res: ToppedUp) => {
      if (balanceSetsBefore === balanceSetCount()) setWalletBalance(res.wallet_balance, { holdsChanged: false });
      // Another balance came meanwhile and may be older or newer than this answer: read it again.
      else invalidateSoon(queryRoots.walletBalance, REFETCH_DELAY_MS);
      walletLedger.patch(undefined, (ledger) => (ledger.transactions.some((t) => t._id === res.transaction._id) ? ledger : {
        ...ledger,
        transactions: [res.transaction, ...ledger.transactions],
        totals: { ...ledger.totals, topup: toRupees(toPaise(ledger.totals.topup) + toPaise(res.transaction.amount)), count: ledger.totals.count + 1 },
      }));
      invalidateSoon(queryRoots.walletLedger, REFETCH_DELAY_MS);
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
    const before = balanceSetCount();
    set({ toppingUp: true });
    try {
      await runMutation(topUpMutation(before), check.amount);
      set({ toppingUp: false });
      return { ok: true };
    } catch (err) {
      set({ toppingUp: false });
      return { ok: false, error: errorText(err, TOPUP_FAILED) };
    }
  },
}));

