import type { ToppedUp, TopUpBody, Transaction, Transactions, WalletBalance } from '@auction/shared';
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

/** The caller's ledger, newest first. */
export async function fetchTransactions(): Promise<Transaction[]> {
  // A body of another shape reads as an empty ledger.
  const data = await api.get<Partial<Transactions> | undefined>('/wallet/transactions', { as: 'user' });
  return Array.isArray(data?.transactions) ? data.transactions : [];
}

export function postTopUp(amount: number): Promise<ToppedUp> {
  return api.post<ToppedUp>('/wallet/topup', { amount } satisfies TopUpBody, { as: 'user' });
}
