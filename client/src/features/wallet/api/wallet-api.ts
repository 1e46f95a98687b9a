import type { Transaction } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The caller's balance; identity comes from the token, so the body names no one. */
export async function fetchBalance(): Promise<number> {
  const data = await api.post<{ wallet_balance: number }>('/wallet', {}, { as: 'user' });
  if (typeof data?.wallet_balance !== 'number') throw new Error('wallet_balance missing');
  return data.wallet_balance;
}

/** The caller's ledger, newest first. */
export async function fetchTransactions(): Promise<Transaction[]> {
  const data = await api.get<{ transactions?: unknown }>('/wallet/transactions', { as: 'user' });
  return Array.isArray(data?.transactions) ? (data.transactions as Transaction[]) : [];
}

export interface ToppedUp {
  message: string;
  wallet_balance: number;
  transaction: Transaction;
}

export function postTopUp(amount: number): Promise<ToppedUp> {
  return api.post<ToppedUp>('/wallet/topup', { amount }, { as: 'user' });
}
