// Test-only helpers: a transaction factory and the shared fetch stub (test/utils).
import type { Transaction } from '@auction/shared';

let nextId = 1;

/**
 * A ledger row. Without `kind` it is a row as a server before ledger kinds sent it (no `kind`, no
 * `meta.buy_now`), which the client still reads by its type and notes.
 */
export function makeTx(
  type: Transaction['type'],
  amount: number,
  over: { notes?: string | null; product_id?: string | null; product_name?: string | null; _id?: string; timestamp?: string; kind?: Transaction['kind']; buy_now?: boolean } = {},
): Transaction {
  const meta = { notes: over.notes ?? null, product_id: over.product_id ?? null, product_name: over.product_name ?? null };
  const row = {
    _id: over._id ?? String(nextId++),
    type,
    amount,
    timestamp: over.timestamp ?? '2026-03-01T10:00:00.000Z',
  };
  if (over.kind === undefined) return { ...row, meta } as Transaction;
  return { ...row, kind: over.kind, meta: { ...meta, buy_now: over.buy_now ?? false } };
}

export { routeFetch } from '../../test/utils';
