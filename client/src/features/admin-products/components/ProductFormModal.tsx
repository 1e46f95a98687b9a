import type { Product } from '@auction/shared';
import { LIMITS } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { createProduct, updateProduct } from '../api/products-api';
import { validateProduct, type ProductDraft } from '../model';
import './products.css';

interface ProductFormModalProps {
  /** The product being edited; none when adding. */
  product?: Product | undefined;
  /** Told once the product is saved (and the toast shown), before the dialog is closed. */
  onSaved: () => void;
  onClose: () => void;
}

/**
 * The one product form, Manage Products' and the admin dashboard's: Add (id, name, description) or
 * Edit (name, description), with the form's fixed messages (model.ts) and the server's own words.
 */
export function ProductFormModal({ product, onSaved, onClose }: ProductFormModalProps) {
  const mode = product ? 'edit' : 'add';
  const [draft, setDraft] = useState<ProductDraft>({
    id: product?.id ?? '',
    name: product?.name ?? '',
    description: product?.description ?? '',
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
    setBusy(true);
    try {
      if (product) await updateProduct(product.id, { name: check.value.name, description: check.value.description });
      else await createProduct(check.value);
    } catch (err) {
      toast.error(errorText(err, mode === 'add' ? 'Create failed' : 'Update failed'));
      setBusy(false);
      return;
    }
    toast.success(mode === 'add' ? 'Product created' : 'Product updated');
    onSaved();
    onClose();
  }

  return (
    <Modal
      title={mode === 'add' ? 'Add Product' : 'Edit Product'}
      onClose={() => { if (!busy) onClose(); }}
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
