import type { ToppedUp, TopUpBody, Transaction, Transactions, WalletBalance } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The caller's balance; identity comes from the token, so the body names no one. */
export async function fetchBalance(): Promise<number> {
  const data = await api.post<WalletBalance>('/wallet', {}, { as: 'user' });
  if (typeof data?.wallet_balance !== 'number') throw new Error('wallet_balance missing');
  return data.wallet_balance;
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
