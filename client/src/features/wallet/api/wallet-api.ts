import type { LedgerTotals, ToppedUp, TopUpBody, Transaction, Transactions, WalletBalance } from '@auction/shared';
import { isTotals, totalsOf } from '../model';
import { api } from '../../../lib/api-client';

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
  // A body of another shape reads as an empty ledger.
  const data = await api.get<Partial<Transactions> | undefined>('/wallet/transactions', { as: 'user', ...(query.before !== undefined || query.limit !== undefined ? { query } : {}) });
  const transactions = Array.isArray(data?.transactions) ? data.transactions : [];
  const nextBefore = typeof data?.next_before === 'string' ? data.next_before : null;
  return { transactions, nextBefore, totals: isTotals(data?.totals) ? data.totals : totalsOf(transactions) };
}

/** Every row of the caller's ledger, newest first, read 100 at a time (the CSV export needs them all). */
export async function fetchWholeLedger(): Promise<LedgerPage> {
  let page = await fetchLedgerPage({ limit: 100 });
  const rows = [...page.transactions];
  while (page.nextBefore !== null) {
    page = await fetchLedgerPage({ before: page.nextBefore, limit: 100 });
    rows.push(...page.transactions);
  }
  return { transactions: rows, nextBefore: null, totals: page.totals };
}

export function postTopUp(amount: number): Promise<ToppedUp> {
  return api.post<ToppedUp>('/wallet/topup', { amount } satisfies TopUpBody, { as: 'user' });
}
