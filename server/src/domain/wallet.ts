import type { Db } from '../db/index.js';
import type { DomainEvent } from './events.js';
import { move } from './ledger.js';

/** Adds money to a bidder's wallet: one ledger row, one balance change, one transaction. */
export function topUp(props: { db: Db; userId: number; amount: number; now: number }) {
  const { db, userId, amount, now } = props;
  const { row, balance } = db.transaction(() => move(db, { userId, type: 'topup', amount, now }), { behavior: 'immediate' });
  const events: DomainEvent[] = [{ type: 'wallet:updated', userId, balance }];
  return { ok: true as const, transaction: row, balance, events };
}
