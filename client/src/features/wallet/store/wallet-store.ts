/**
 * The caller's wallet: balance (POST /wallet) and ledger (GET /wallet/transactions) as resources of
 * lib/resource.ts, and the top-up action. A live `wallet:updated` sets the balance and re-reads the
 * ledger; a reconnect, after which updates may have been missed (docs/live-protocol.md#reconnecting),
 * reads both again. When the balance call fails the balance is derived from the ledger (docs/money.md);
 * with neither it is unknown (null, shown as a dash).
 */
import { create } from 'zustand';
import type { Transaction } from '@auction/shared';
import { errorText } from '../../../lib/api-client';
import { createResource, invalidate, useResource } from '../../../lib/resource';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { fetchBalance, fetchTransactions, postTopUp } from '../api/wallet-api';
import { balanceFromLedger, validateTopUp } from '../model';

export type ActionResult = { ok: true } | { ok: false; error: string };

export const TOPUP_FAILED = 'Top-up failed';
export const LEDGER_FAILED = 'Could not load your transactions';
export const REFETCH_DELAY_MS = 300;

/** The caller's balance in rupees. */
export const walletBalance = createResource<void, number>('wallet-balance', () => fetchBalance());
/** The caller's ledger, newest first. */
export const walletLedger = createResource<void, Transaction[]>('wallet-ledger', () => fetchTransactions());

const NO_TRANSACTIONS: Transaction[] = [];

export interface WalletView {
  balance: number | null;
  /** Where the balance came from: the server (call or live event) or the ledger fallback. */
  balanceSource: 'server' | 'ledger' | null;
  transactions: Transaction[];
  /** True once a ledger has come from the server (an empty one included). */
  loaded: boolean;
  /** The ledger is being read. */
  loading: boolean;
  /** The last ledger read's error text, cleared by the next success. */
  error: string | null;
  /** Reads balance and ledger again. */
  reload: () => void;
}

/** The balance from the server, else worked out from the ledger when the balance call failed, else unknown. */
export function walletBalanceOf(balance: { data: number | undefined; status: string }, ledger: { data: Transaction[] | undefined; status: string }): Pick<WalletView, 'balance' | 'balanceSource'> {
  if (balance.data !== undefined) return { balance: balance.data, balanceSource: 'server' };
  if (balance.status === 'error' && ledger.data !== undefined) return { balance: balanceFromLedger(ledger.data), balanceSource: 'ledger' };
  return { balance: null, balanceSource: null };
}

/** The wallet for a page: balance and ledger read on mount and kept current. */
export function useWalletView(): WalletView {
  const balance = useResource(walletBalance, undefined);
  const ledger = useResource(walletLedger, undefined);
  const { refetch: refetchBalance } = balance;
  const { refetch: refetchLedger } = ledger;
  return {
    ...walletBalanceOf(balance, ledger),
    transactions: ledger.data ?? NO_TRANSACTIONS,
    loaded: ledger.data !== undefined,
    loading: ledger.fetching,
    error: ledger.error === undefined ? null : errorText(ledger.error, LEDGER_FAILED),
    reload: () => {
      void refetchBalance();
      void refetchLedger();
    },
  };
}

// A live balance is newer than a top-up answer that was on its way when it arrived.
let liveBalances = 0;

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
    const before = liveBalances;
    set({ toppingUp: true });
    try {
      const res = await postTopUp(check.amount);
      if (before === liveBalances) walletBalance.set(undefined, res.wallet_balance);
      walletLedger.patch(undefined, (txs) => (txs.some((t) => t._id === res.transaction._id) ? txs : [res.transaction, ...txs]));
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
  liveBalances++;
  walletBalance.set(undefined, e.data.wallet_balance);
  invalidate(walletLedger.name, REFETCH_DELAY_MS);
}

onLive(handleWalletLiveEvent);

// After a reconnect the wallet on screen is read again.
onReconnect(() => {
  invalidate(walletBalance.name);
  invalidate(walletLedger.name);
});
