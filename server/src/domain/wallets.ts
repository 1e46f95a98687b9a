import type { Applied } from '../db/index.js';
import type { DomainEvent } from './events.js';

/** One `wallet:updated` for every wallet a change set moved, with its last balance. */
export function walletEvents(applied: Applied): DomainEvent[] {
  return [...applied.balances].map(([userId, balance]) => ({ type: 'wallet:updated', userId, balance }));
}
