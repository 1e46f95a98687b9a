/** The product form's rules and messages. */
import { CATALOGUE_MESSAGES } from '@auction/shared';

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
