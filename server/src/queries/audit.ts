/**
 * The money audit (DESIGN §4): Σ topups = Σ balances + Σ held + Σ paid, exact to the paisa, plus
 * the structural rules that make it meaningful. Used by tests after every concurrent scenario and
 * by the benchmark after the storm.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';

export interface MoneyAudit {
  topups: number;
  balances: number;
  held: number;
  paid: number;
  /** Users whose cached balance differs from the sum of their ledger. */
  ledgerMismatches: number;
  negativeBalances: number;
  /** Products with more than one leading bid. */
  multipleLeaders: number;
  ok: boolean;
}

export function auditMoney(db: Db): MoneyAudit {
  const r = db.get<Omit<MoneyAudit, 'ok'>>(sql`
    select
      (select coalesce(sum(amount), 0) from wallet_transactions where type = 'topup') as topups,
      (select coalesce(sum(wallet_balance), 0) from users) as balances,
      (select coalesce(sum(amount), 0) from bids where status = 'success') as held,
      (select coalesce(sum(amount), 0) from bids where status = 'won') as paid,
      (select count(*) from users u where u.wallet_balance <> (
        select coalesce(sum(case t.type when 'bid' then -t.amount else t.amount end), 0) from wallet_transactions t where t.user_id = u.id)) as ledgerMismatches,
      (select count(*) from users where wallet_balance < 0) as negativeBalances,
      (select count(*) from (select product_id from bids where status = 'success' group by product_id having count(*) > 1)) as multipleLeaders`);
  const ok = r.topups === r.balances + r.held + r.paid && r.ledgerMismatches === 0 && r.negativeBalances === 0 && r.multipleLeaders === 0;
  return { ...r, ok };
}
