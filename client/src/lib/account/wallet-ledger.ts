/**
 * The caller's ledger (GET /wallet/transactions) as a query, shared by the wallet page and the
 * dashboard, and the live `wallet:updated` handling of the wallet's figures: the event sets the balance
 * at once and re-reads the holds (the event carries only the balance, and what the leading bids hold
 * moves with it) and the ledger; a reconnect, after which updates may have been missed
 * (docs/live-protocol.md#reconnecting), invalidates both. When the balance call fails the balance is
 * derived from the ledger (docs/money.md) and the holds are unknown; with neither the balance is
 * unknown too (null, shown as a dash).
 */
import { TRANSACTIONS_PAGE_DEFAULT, type LedgerTotals, type Transaction, type Transactions } from '@auction/shared';
import { api } from '../api-client';
import { onLive, onReconnect, type LiveData } from '../live';
import { invalidateSoon, queryFamily } from '../live-query';
import { queryRoots } from '../query-keys';
import { setWalletBalance, type WalletFigures } from './wallet-balance';
import { balanceFromLedger, isTotals, totalsOf, withFirstPage, type Ledger } from './wallet-model';

/** Live changes to the ledger are confirmed by one re-read after a burst settles. */
export const LEDGER_REFETCH_DELAY_MS = 300;

/** A page of the caller's ledger, newest first, and the whole ledger's totals (docs/money.md). */
export interface LedgerPage {
  transactions: Transaction[];
  /** Where the next (older) page starts; null when this is the last. */
  nextBefore: string | null;
  totals: LedgerTotals;
}

/**
 * One page of the caller's ledger: the newest (without `before`), or the one older than `before`; the
 * server's default size unless `limit` says. A server that does not page sends the whole ledger
 * without totals: they are summed from it then.
 */
export async function fetchLedgerPage(query: { before?: string; limit?: number } = {}): Promise<LedgerPage> {
  // Always a page: with neither `limit` nor `before` the server answers the whole ledger (for the spec's clients).
  const paged = query.before === undefined && query.limit === undefined ? { limit: TRANSACTIONS_PAGE_DEFAULT } : query;
  // A body of another shape reads as an empty ledger.
  const data = await api.get<Partial<Transactions> | undefined>('/wallet/transactions', { as: 'user', query: paged });
  const transactions = Array.isArray(data?.transactions) ? data.transactions : [];
  const nextBefore = typeof data?.next_before === 'string' ? data.next_before : null;
  return { transactions, nextBefore, totals: isTotals(data?.totals) ? data.totals : totalsOf(transactions) };
}

/**
 * The caller's ledger as shown: its newest page, the older pages "Load more" added, and the whole
 * ledger's totals. Read again (a live change, a reconnect), the newest page is read and the older rows
 * shown stay below it (withFirstPage).
 */
export const walletLedger = queryFamily<void, Ledger>(queryRoots.walletLedger, async (_params, shown) => withFirstPage(shown, await fetchLedgerPage()));

/**
 * The balance from the server, else worked out from the ledger when the balance call failed, else
 * unknown; the holds only from the server (the ledger cannot tell what is held from what was paid).
 */
export function walletBalanceOf(
  balance: { data: WalletFigures | undefined; status: string },
  ledger: { data: Ledger | undefined; status: string },
): { balance: number | null; balanceSource: 'server' | 'ledger' | null; onHold: number | null } {
  if (balance.data !== undefined) return { balance: balance.data.wallet_balance, balanceSource: 'server', onHold: balance.data.on_hold };
  if (balance.status === 'error' && ledger.data !== undefined) return { balance: balanceFromLedger(ledger.data.totals), balanceSource: 'ledger', onHold: null };
  return { balance: null, balanceSource: null, onHold: null };
}

/** Applies one personal event (exported for tests; the module listens by itself). */
export function handleWalletLiveEvent(data: LiveData<'wallet:updated'>): void {
  // The event carries the balance alone: On hold (which moves with it) and the ledger are read again.
  setWalletBalance(data.wallet_balance);
  invalidateSoon(queryRoots.walletLedger, LEDGER_REFETCH_DELAY_MS);
}

onLive('wallet:updated', handleWalletLiveEvent);

// After a reconnect the wallet on screen is read again.
onReconnect(() => {
  invalidateSoon(queryRoots.walletBalance);
  invalidateSoon(queryRoots.walletLedger);
});
