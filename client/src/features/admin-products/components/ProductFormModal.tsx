import type { Category, Product } from '@auction/shared';
import { LIMITS } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { categoriesQuery, createProduct, updateProduct } from '../api/products-api';
import { checkPrices, priceBody, pricesFixed, validateProduct, type PriceDraft, type PriceErrors, type ProductDraft } from '../model';
import { ProductPhotos } from './ProductPhotos';
import './products.css';

interface ProductFormModalProps {
  /** The product being edited; none when adding. */
  product?: Product | undefined;
  /** Told once the product is saved (and the toast shown), before the dialog is closed or turns to the new product's photos. */
  onSaved: () => void;
  onClose: () => void;
}

export const PRICES_FIXED = 'Prices are fixed once a lot has bids';

const priceText = (rupees: number | null | undefined) => (rupees === null || rupees === undefined ? '' : String(rupees));

/**
 * The one product form, Manage Products' and the admin dashboard's: Add (id, name, description, prices)
 * or Edit (name, description, prices while the lot has no bid, photos), with the form's fixed messages
 * and the price rules (model.ts), and the server's own words when it refuses. A photo belongs to a
 * product that exists, so once Add has created one the dialog turns to its photos ("Add Photos", Done).
 */
export function ProductFormModal({ product, onSaved, onClose }: ProductFormModalProps) {
  const mode = product ? 'edit' : 'add';
  /** The product Add has just created: the dialog now shows its photos. */
  const [created, setCreated] = useState<Product | null>(null);
  const [draft, setDraft] = useState<ProductDraft>({
    id: product?.id ?? '',
    name: product?.name ?? '',
    description: product?.description ?? '',
  });
  const [prices, setPrices] = useState<PriceDraft>({
    starting: product ? priceText(product.starting_price) : '',
    reserve: priceText(product?.reserve_price),
    buyNow: priceText(product?.buy_now_price),
  });
  const [error, setError] = useState<string | null>(null);
  const [priceErrors, setPriceErrors] = useState<PriceErrors>({});
  const initialCategory = product?.category?.id ?? null;
  const [categoryId, setCategoryId] = useState<number | null>(initialCategory);
  const categories = useServerQuery(categoriesQuery());
  const save = useServerMutation({
    mutationFn: async ({ fields, pricing, category }: { fields: ProductDraft; pricing: ReturnType<typeof priceBody>; category: { category_id?: number | null } }): Promise<Product | undefined> => {
      if (!product) return (await createProduct({ ...fields, ...pricing, ...category }))?.product;
      await updateProduct(product.id, { name: fields.name, description: fields.description, ...pricing, ...category });
      return undefined;
    },
    onSuccess: (saved) => {
      toast.success(mode === 'add' ? 'Product created' : 'Product updated');
      onSaved();
      // A new product's photos come next (an answer without the product has nothing to add them to).
      if (saved?.id) setCreated({ ...saved, images: saved.images ?? [] });
      else onClose();
    },
    onError: (err) => toast.error(errorText(err, mode === 'add' ? 'Create failed' : 'Update failed')),
  });
  const busy = save.isPending;
  const fixed = product !== undefined && pricesFixed(product);
  const formId = `product-form-${mode}`;
  const set = (key: keyof ProductDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setError(null);
  };
  const setPrice = (key: keyof PriceDraft) => (value: string) => {
    setPrices((p) => ({ ...p, [key]: value }));
    setPriceErrors((e) => ({ ...e, [key]: undefined }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const check = validateProduct(draft, mode);
    if (!check.ok) {
      setError(check.error);
      return;
    }
    const priced = fixed ? null : checkPrices(prices);
    if (priced && !priced.ok) {
      setPriceErrors(priced.errors);
      return;
    }
    setPriceErrors({});
    const pricing = priced ? priceBody(priced.value, product) : {};
    // Adding sends a category when one is chosen; editing only a change (null takes it out of its category).
    const category = product ? (categoryId === initialCategory ? {} : { category_id: categoryId }) : (categoryId === null ? {} : { category_id: categoryId });
    save.mutate({ fields: check.value, pricing, category });
  }

  if (created) {
    return (
      <Modal
        title="Add Photos"
        size="lg"
        onClose={onClose}
        footer={<button type="button" className="btn btn-primary" onClick={onClose}>Done</button>}
      >
        <div className="products-form">
          <p className="products-created">
            <Icon name="check" size={18} />
            <span>Product <code>{created.id}</code> created. Add its photos now, or choose Done and add them later from Edit.</span>
          </p>
          <ProductPhotos product={created} autoFocus />
        </div>
      </Modal>
    );
  }

  return (
    <Modal
      title={mode === 'add' ? 'Add Product' : 'Edit Product'}
      size={product ? 'lg' : 'md'}
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
      <form id={formId} className="products-form" onSubmit={submit} noValidate>
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
        <CategorySelect categories={categories.data} value={categoryId} onChange={setCategoryId} current={product?.category ?? null} />
        <fieldset className="products-prices" aria-describedby={fixed ? 'product-prices-fixed' : undefined}>
          <legend className="field-label products-prices-legend">Pricing</legend>
          {fixed && (
            <p className="products-prices-fixed" id="product-prices-fixed">
              <Icon name="info" size={16} /> <span>{PRICES_FIXED}</span>
            </p>
          )}
          {PRICE_FIELDS.map((row, i) => (
            <div key={i} className={row.length > 1 ? 'products-prices-row' : undefined}>
              {row.map((f) => (
                <PriceField key={f.key} id={f.id} label={f.label} placeholder={f.placeholder} hint={f.hint}
                  value={prices[f.key]} onValueChange={setPrice(f.key)} error={priceErrors[f.key]} disabled={fixed} />
              ))}
            </div>
          ))}
        </fieldset>
      </form>
      {product && <ProductPhotos product={product} />}
    </Modal>
  );
}

/** The three prices, as laid out: the starting price alone, then the optional reserve and buy-now side by side. */
const PRICE_FIELDS: readonly (readonly { key: keyof PriceDraft; id: string; label: string; placeholder: string; hint: string }[])[] = [
  [{ key: 'starting', id: 'product-starting', label: 'Starting price (₹)', placeholder: '0', hint: 'The first bid must be at least this. Blank: ₹0.' }],
  [
    { key: 'reserve', id: 'product-reserve', label: 'Reserve price (₹, optional)', placeholder: 'No reserve', hint: 'Secret: below it the lot is not sold.' },
    {
      key: 'buyNow', id: 'product-buy-now', label: 'Buy-now price (₹, optional)', placeholder: 'None',
      hint: 'Bidders may buy at once for this until a bid is placed (with a reserve: until a bid reaches it).',
    },
  ],
];

/** A rupee amount with its hint and, when refused, its message (announced). */
function PriceField({ id, label, value, onValueChange, placeholder, hint, error, disabled }: {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  placeholder: string;
  hint: string;
  error: string | undefined;
  disabled: boolean;
}) {
  return (
    <div className="field products-price">
      <label className="field-label" htmlFor={id}>{label}</label>
      <input
        id={id}
        className={`input${error ? ' input-invalid' : ''}`}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      <p className="products-hint" id={`${id}-hint`}>{hint}</p>
      {error && <p className="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </div>
  );
}

/**
 * The category: "No category", then each top-level category followed by its subcategories (shown
 * as "Home › Lamps"). The product's own category is offered even before the list has come.
 */
function CategorySelect({ categories, value, onChange, current }: {
  categories: readonly Category[] | undefined;
  value: number | null;
  onChange: (id: number | null) => void;
  current: NonNullable<Product['category']> | null;
}) {
  const names = new Map((categories ?? []).map((c) => [c.id, c.name]));
  const label = (c: Category) => (c.parent_id === null ? c.name : `${names.get(c.parent_id) ?? ''} › ${c.name}`);
  const listed = categories ?? [];
  return (
    <div className="field">
      <label className="field-label" htmlFor="product-category">Category (optional)</label>
      <select id="product-category" className="input" value={value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}>
        <option value="">No category</option>
        {current && !listed.some((c) => c.id === current.id) && <option value={current.id}>{current.name}</option>}
        {listed.map((c) => <option key={c.id} value={c.id}>{label(c)}</option>)}
      </select>
    </div>
  );
}
