/**
 * Wallets and the ledger (docs/money.md).
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { isStorableId } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { marks } from '../sql.js';
import type { Wallet, WalletWork } from './types.js';

export class WalletSql extends SqlSlice implements WalletWork {
  async lockWallets(userIds: readonly number[]): Promise<Map<number, Wallet>> {
    // An id no row can have (past 32 bits: PostgreSQL refuses it as a parameter) names no wallet.
    const ids = [...new Set(userIds)].filter(isStorableId).sort((a, b) => a - b);
    const wallets = new Map<number, Wallet>();
    if (ids.length === 0) return wallets;
    // Ascending ids: two commands that both need wallets A and B always take A first.
    const rows = ids.length === 1
      ? await this.sql.all<Wallet>(`select id, username, status, wallet_balance as balance from users where id = ?${this.dialect.forUpdate}`, ids)
      : await this.sql.all<Wallet>(`select id, username, status, wallet_balance as balance from users where id in (${marks(ids.length)}) order by id${this.dialect.forUpdate}`, ids);
    for (const r of rows) wallets.set(r.id, r);
    return wallets;
  }
}
