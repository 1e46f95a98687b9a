import type { Product } from '@auction/shared';
import { LIMITS } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { validateProduct, type ProductDraft } from '../model';

interface ProductFormModalProps {
  /** The product being edited; none when adding. */
  product?: Product | undefined;
  busy: boolean;
  onSubmit: (draft: ProductDraft) => Promise<boolean>;
  onClose: () => void;
}

/** Add (id, name, description) or Edit (name, description) a product with the form's fixed messages (model.ts). */
export function ProductFormModal({ product, busy, onSubmit, onClose }: ProductFormModalProps) {
  const mode = product ? 'edit' : 'add';
  const [draft, setDraft] = useState<ProductDraft>({
    id: product?.id ?? '',
    name: product?.name ?? '',
    description: product?.description ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const formId = `product-form-${mode}`;
  const set = (key: keyof ProductDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setError(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const check = validateProduct(draft, mode);
    if (!check.ok) {
      setError(check.error);
      return;
    }
    await onSubmit(check.value);
  }

  return (
    <Modal
      title={mode === 'add' ? 'Add Product' : 'Edit Product'}
      onClose={onClose}
      footer={(
        <>
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy} aria-busy={busy}>
            {busy ? 'Saving…' : mode === 'add' ? 'Add Product' : 'Save Changes'}
          </button>
        </>
      )}
    >
      <form id={formId} className="products-form" onSubmit={(e) => void submit(e)} noValidate>
        {error && (
          <p className="products-form-error" role="alert">
            <Icon name="alert" size={18} /> <span>{error}</span>
          </p>
        )}
        {mode === 'add' ? (
          <FormField id="product-id" label="Product ID" value={draft.id} onValueChange={set('id')} maxLength={LIMITS.idMax} autoComplete="off" placeholder="e.g. P-100" />
        ) : (
          <p className="products-form-id">Product ID <code>{product?.id}</code></p>
        )}
        <FormField id="product-name" label="Name" value={draft.name} onValueChange={set('name')} maxLength={LIMITS.nameMax} autoComplete="off" />
        <div className="field">
          <label className="field-label" htmlFor="product-description">Description</label>
          <textarea
            id="product-description"
            className="input products-textarea"
            value={draft.description}
            maxLength={LIMITS.descriptionMax}
            rows={4}
            onChange={(e) => set('description')(e.target.value)}
          />
        </div>
      </form>
    </Modal>
  );
}
