// Test-only helpers: a transaction factory and the shared fetch stub (test/utils).
import type { Transaction } from '@auction/shared';

let nextId = 1;

export function makeTx(
  type: Transaction['type'],
  amount: number,
  over: { notes?: string | null; product_id?: string | null; product_name?: string | null; _id?: string; timestamp?: string } = {},
): Transaction {
  return {
    _id: over._id ?? String(nextId++),
    type,
    amount,
    timestamp: over.timestamp ?? '2026-03-01T10:00:00.000Z',
    meta: { notes: over.notes ?? null, product_id: over.product_id ?? null, product_name: over.product_name ?? null },
  };
}

export { routeFetch } from '../../test/utils';
