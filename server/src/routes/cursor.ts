/** Opaque keyset cursors, shared by every paged list (the catalogue, the admin's products and users). */
import type { LotSearchKey } from '../db/index.js';
import { AppError } from '../errors.js';

/** A cursor names the order it belongs to and the last row's place in it: `base64url(JSON [1, order, key, id])`. */
const CURSOR_VERSION = 1;

export function encodeCursor(order: string, key: LotSearchKey): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, order, key.key, key.id])).toString('base64url');
}

/** The place a cursor names, or 400 VALIDATION for anything that is not a cursor of this order. */
export function decodeCursor(text: string, order: string): LotSearchKey {
  const refuse = () => new AppError('VALIDATION', 'cursor must be the next_cursor of a page of this search', 'cursor');
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw refuse();
  let parsed: unknown;
  try { parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')); } catch { throw refuse(); }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw refuse();
  const [version, cursorSort, key, id] = parsed as unknown[];
  if (version !== CURSOR_VERSION || cursorSort !== order) throw refuse();
  if (typeof key !== 'number' || !Number.isSafeInteger(key)) throw refuse();
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) throw refuse();
  return { key, id };
}
