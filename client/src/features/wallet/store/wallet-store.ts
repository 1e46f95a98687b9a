/**
 * The caller's wallet: balance (POST /wallet), ledger (GET /wallet/transactions) and top-up. A live
 * `wallet:updated` sets the balance and re-reads the ledger; a reconnect, after which updates may have
 * been missed (docs/live-protocol.md#reconnecting), reads both again. When the balance call fails the balance is derived from
 * the ledger (docs/money.md); with neither it is unknown (null, shown as a dash).
 */
import { create } from 'zustand';
import type { Transaction } from '@auction/shared';
import { errorText } from '../../../lib/api-client';
import { useSession } from '../../auth';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { fetchBalance, fetchTransactions, postTopUp } from '../api/wallet-api';
import { balanceFromLedger, validateTopUp } from '../model';

export type ActionResult = { ok: true } | { ok: false; error: string };

export interface WalletState {
  balance: number | null;
  /** Where the balance came from: the server (call or live event) or the ledger fallback. */
  balanceSource: 'server' | 'ledger' | null;
  transactions: Transaction[];
  /** True once a ledger has come from the server (an empty one included). */
  loaded: boolean;
  loading: boolean;
  /** The last ledger load's error text, cleared by the next success. */
  error: string | null;
  toppingUp: boolean;
  /** Balance and ledger together; the result speaks for the ledger (a failed balance falls back silently). */
  load: () => Promise<ActionResult>;
  topUp: (amount: number) => Promise<ActionResult>;
  reset: () => void;
}

export const TOPUP_FAILED = 'Top-up failed';
export const LEDGER_FAILED = 'Could not load your transactions';
export const REFETCH_DELAY_MS = 300;

// A write to the balance or the ledger takes a new number; an answer read under an older one is stale.
let balanceGen = 0;
let ledgerGen = 0;
let refetchTimer: ReturnType<typeof setTimeout> | undefined;

const initial = {
  balance: null, balanceSource: null, transactions: [] as Transaction[], loaded: false, loading: false, error: null, toppingUp: false,
} satisfies Partial<WalletState>;

export const useWallet = create<WalletState>()((set, get) => ({
  ...initial,

  load: async () => {
    const myBalance = ++balanceGen;
    const myLedger = ++ledgerGen;
    set({ loading: true });
    const [balance, ledger] = await Promise.allSettled([fetchBalance(), fetchTransactions()]);

    if (ledger.status === 'fulfilled' && myLedger === ledgerGen) {
      set({ transactions: ledger.value, loaded: true, loading: false, error: null });
    } else if (ledger.status === 'rejected' && myLedger === ledgerGen) {
      set({ loading: false, error: errorText(ledger.reason, LEDGER_FAILED) });
    }

    if (myBalance === balanceGen) {
      if (balance.status === 'fulfilled') set({ balance: balance.value, balanceSource: 'server' });
      else if (ledger.status === 'fulfilled') set({ balance: balanceFromLedger(ledger.value), balanceSource: 'ledger' });
      else if (get().balanceSource !== 'server') set({ balance: null, balanceSource: null });
    }

    return ledger.status === 'fulfilled' ? { ok: true } : { ok: false, error: errorText(ledger.reason, LEDGER_FAILED) };
  },

  topUp: async (amount) => {
    const check = validateTopUp(amount);
    if (!check.ok) return check;
    if (get().toppingUp) return { ok: false, error: TOPUP_FAILED };
    const myBalance = balanceGen;
    set({ toppingUp: true });
    try {
      const res = await postTopUp(check.amount);
      // A live update that arrived meanwhile is at least as new as this answer.
      if (myBalance === balanceGen) {
        balanceGen++;
        set({ balance: res.wallet_balance, balanceSource: 'server' });
      }
      ledgerGen++;
      set((s) => ({
        toppingUp: false,
        transactions: s.transactions.some((t) => t._id === res.transaction._id) ? s.transactions : [res.transaction, ...s.transactions],
      }));
      scheduleLedgerRefetch();
      return { ok: true };
    } catch (err) {
      set({ toppingUp: false });
      return { ok: false, error: errorText(err, TOPUP_FAILED) };
    }
  },

  reset: () => {
    balanceGen++;
    ledgerGen++;
    clearTimeout(refetchTimer);
    set(initial);
  },
}));

/** Re-reads the ledger shortly (a burst of events reads once); only a ledger someone asked for. */
function scheduleLedgerRefetch(): void {
  clearTimeout(refetchTimer);
  refetchTimer = setTimeout(() => {
    const s = useWallet.getState();
    if (!s.loaded && !s.loading) return;
    const mine = ++ledgerGen;
    fetchTransactions().then(
      (transactions) => { if (mine === ledgerGen) useWallet.setState({ transactions, loaded: true, loading: false, error: null }); },
      () => { if (mine === ledgerGen) useWallet.setState({ loading: false }); },
    );
  }, REFETCH_DELAY_MS);
}

/** Applies one personal event (exported for tests; the store listens by itself). */
export function handleWalletLiveEvent(e: LiveEvent): void {
  if (e.event !== 'wallet:updated') return;
  balanceGen++;
  ledgerGen++;
  useWallet.setState({ balance: e.data.wallet_balance, balanceSource: 'server' });
  scheduleLedgerRefetch();
}

onLive(handleWalletLiveEvent);

// After a reconnect a wallet someone asked for is read again.
onReconnect(() => {
  const s = useWallet.getState();
  if (s.loaded || s.loading || s.balance !== null) void s.load();
});

// Another account in this tab must never see the previous one's wallet.
useSession.subscribe((s, prev) => {
  if (s.user?.id !== prev.user?.id || s.userToken !== prev.userToken) useWallet.getState().reset();
});
