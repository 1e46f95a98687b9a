import { HOUSE_LIMITS, type PutBillingBody } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import type { AddressDraft } from '../../../lib/address/address';
import { AddressFields } from '../../../lib/address/AddressFields';
import { errorText, isSessionEnded } from '../../../lib/api-client';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { billingQuery, billingSaved, saveBilling } from '../api/billing-api';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';
import {
  BILLING_FIELDS, billingBody, billingDraftOf, billingFieldId, billingRefusal, validateBilling, type BillingDraft, type BillingErrors,
} from '../billing-model';

/**
 * Who the bidder's invoices are made out to (GET/PUT /me/billing, docs/invoices.md): a name, an address and,
 * for a business buyer, its GSTIN, saved whole. Invoices already issued keep the details they were
 * issued with.
 */
export function BillingCard() {
  const { data, status, error, refetch } = useServerQuery(billingQuery());
  return (
    <section className="card settings-card billing-card" aria-labelledby="billing-title">
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="tag" size={18} /></span>
          <h2 id="billing-title" className="card-title">Billing details</h2>
        </div>
      </div>
      {status === 'error' && !data ? (
        <p className="settings-error" role="alert">
          <Icon name="alert" size={18} /> <span>{errorText(error, 'Failed to load your billing details')}</span>
          <button type="button" className="settings-link-btn" onClick={() => void refetch()}>Try again</button>
        </p>
      ) : !data ? (
        <Spinner label="Loading your billing details…" />
      ) : (
        <BillingForm draft0={billingDraftOf(data)} />
      )}
    </section>
  );
}

const upper = (v: string) => v.toUpperCase();

function BillingForm({ draft0 }: { draft0: BillingDraft }) {
  const [draft, setDraft] = useState<BillingDraft>(draft0);
  const [errors, setErrors] = useState<BillingErrors>({});
  const focusNext = useFocusAfterRender();

  const save = useServerMutation({
    mutationFn: (body: PutBillingBody) => saveBilling(body),
    onSuccess: (saved) => {
      billingSaved(saved);
      setDraft(billingDraftOf(saved));
      setErrors({});
      toast.success('Billing details saved');
    },
    onError: (err) => {
      if (isSessionEnded(err)) return;
      const at = billingRefusal(err);
      if (at) {
        setErrors({ [at.field]: at.message });
        focusNext(billingFieldId(at.field));
        return;
      }
      toast.error(errorText(err, 'Could not save your billing details. Please try again.'));
    },
  });
  const saving = save.isPending;

  const clear = (...fields: string[]) => setErrors((e) => {
    if (!fields.some((f) => e[f])) return e;
    const next = { ...e };
    for (const f of fields) delete next[f];
    return next;
  });
  const top = (key: 'name' | 'gstin', map: (v: string) => string = (v) => v) => ({
    id: billingFieldId(key),
    value: draft[key],
    error: errors[key],
    onValueChange: (v: string) => {
      setDraft((d) => ({ ...d, [key]: map(v) }));
      clear(key);
    },
  });
  const setAddress = (field: keyof AddressDraft, v: string) => {
    setDraft((d) => ({ ...d, address: { ...d.address, [field]: v } }));
    clear(`address.${field}`, ...(field === 'state_code' ? ['gstin'] : []));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const found = validateBilling(draft);
    setErrors(found);
    const first = BILLING_FIELDS.find((f) => found[f]);
    if (first) {
      focusNext(billingFieldId(first));
      return;
    }
    save.mutate(billingBody(draft));
  }

  return (
    <form className="card-body settings-form" onSubmit={submit} noValidate>
      <p className="settings-hint">
        Your invoices are made out to these details. Invoices already issued keep the details they were issued with.
      </p>
      <FormField label="Name" {...top('name')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="name" hint="Your name, or your business’s, as invoices should show it" />
      <AddressFields prefix="address" value={draft.address} onChange={setAddress} errors={errors} idOf={billingFieldId} />
      <FormField
        label="GSTIN (optional)" {...top('gstin', upper)} maxLength={15} autoComplete="off" autoCapitalize="characters" spellCheck={false}
        hint="For a business buyer: 15 characters, beginning with the state code of the address above"
      />
      <div className="settings-actions">
        <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving}>
          {saving ? 'Saving…' : 'Save billing details'}
        </button>
      </div>
    </form>
  );
}
