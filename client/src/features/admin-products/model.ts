/** The product form's rules and messages, and the table's status badge. */
import { CATALOGUE_MESSAGES, type Product } from '@auction/shared';
import type { Tone } from '../../lib/format';

export interface ProductDraft {
  id: string;
  name: string;
  description: string;
}

export type ProductCheck =
  | { ok: true; value: ProductDraft }
  | { ok: false; error: string };

/** Adding needs id, name and description ('Please fill all fields'); editing needs name and description ('Fill required fields'). */
export function validateProduct(draft: ProductDraft, mode: 'add' | 'edit'): ProductCheck {
  const value = { id: draft.id.trim(), name: draft.name.trim(), description: draft.description.trim() };
  if (mode === 'add' && (!value.id || !value.name || !value.description)) return { ok: false, error: CATALOGUE_MESSAGES.productCreate };
  if (mode === 'edit' && (!value.name || !value.description)) return { ok: false, error: CATALOGUE_MESSAGES.productEdit };
  return { ok: true, value };
}

export function productBadge(status: Product['status']): { label: 'Sold' | 'Available'; tone: Tone } {
  return status === 'sold' ? { label: 'Sold', tone: 'info' } : { label: 'Available', tone: 'success' };
}
