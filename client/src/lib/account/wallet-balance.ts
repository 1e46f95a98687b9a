/**
 * The caller's wallet balance and holds (POST /wallet), shared by the wallet page, the dashboard and the
 * bid and buy-now flows (which learn a new balance from their answers). The wallet feature owns the
 * ledger, the top-up and the live `wallet:updated` handling; the figures live here so a feature can set
 * or show them without importing the wallet feature.
 */
import type { WalletBalance } from '@auction/shared';
import { api } from '../api-client';
import { invalidateSoon, queryFamily } from '../live-query';
import { useServerQuery, type ServerState } from '../query';
import { queryRoots } from '../query-keys';

/** The wallet's two figures in rupees; `on_hold` is null while it is not known. */
export interface WalletFigures {
  /** Available: what can be bid or spent now. */
  wallet_balance: number;
  /** Held by the caller's leading bids (a maximum bid holds all of its maximum); back in the wallet when outbid. */
  on_hold: number | null;
}

/** The caller's balance and holds; identity comes from the token, so the body names no one. */
export async function fetchBalance(): Promise<WalletFigures> {
  const data = await api.post<Partial<WalletBalance> | undefined>('/wallet', {}, { as: 'user' });
  if (typeof data?.wallet_balance !== 'number') throw new Error('wallet_balance missing');
  // An answer without on_hold leaves it unknown (a dash) rather than a wrong ₹0.
  return { wallet_balance: data.wallet_balance, on_hold: typeof data.on_hold === 'number' ? data.on_hold : null };
}

/** Holds move with a bid or a refund: the figures on screen are read again once a burst settles. */
export const BALANCE_REFETCH_DELAY_MS = 300;

/** The caller's balance and what their leading bids hold, in rupees. */
export const walletBalance = queryFamily<void, WalletFigures>(queryRoots.walletBalance, () => fetchBalance());

/** The figures for a component: read on mount, kept current. */
export function useWalletBalance(options: { read?: boolean } = {}): ServerState<WalletFigures> {
  return useServerQuery(walletBalance.options(), { enabled: options.read !== false });
}

// Counts the balances set (live events, write answers): a balance set while a top-up was on its way
// is not overwritten by the top-up's answer, which may be older.
let balanceSets = 0;

/** How many balances have been set so far (a write compares it before and after its call). */
export function balanceSetCount(): number {
  return balanceSets;
}

/**
 * A balance known to be newer than any answer on its way (a write's answer, a live event): shown at
 * once, the holds kept as they were. With `holdsChanged` (a bid, a refund, a live `wallet:updated`)
 * the figures on screen are read again shortly, so On hold follows; a top-up leaves the holds alone.
 */
export function setWalletBalance(amount: number, { holdsChanged = true }: { holdsChanged?: boolean } = {}): void {
  balanceSets++;
  walletBalance.set(undefined, { wallet_balance: amount, on_hold: walletBalance.get().data?.on_hold ?? null });
  if (holdsChanged) invalidateSoon(queryRoots.walletBalance, BALANCE_REFETCH_DELAY_MS);
}
