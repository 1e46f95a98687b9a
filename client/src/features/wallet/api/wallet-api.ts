import type { ToppedUp, TopUpBody } from '@auction/shared';
import { fetchLedgerPage, type LedgerPage } from '../../../lib/account/wallet-ledger';

export { fetchBalance, type WalletFigures } from '../../../lib/account/wallet-balance';
export { fetchLedgerPage, type LedgerPage };
import { api } from '../../../lib/api-client';

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
