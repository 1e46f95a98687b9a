/**
 * The billing details card's rules (docs/invoices.md): the form's draft, the checks the server makes (a
 * name, the whole address, a GSTIN of the address's state: gstinProblem) made before sending, the
 * body PUT /me/billing takes, and where the server's refusal is shown.
 */
import { gstinProblem, type Billing, type PutBillingBody } from '@auction/shared';
import {
  ADDRESS_FIELDS, ADDRESS_MESSAGES, addressBody, addressDraft, checkAddress, gstinMessage, type AddressDraft, type FieldErrors,
} from '../../lib/address/address';
import { ApiError } from '../../lib/api-client';

export interface BillingDraft {
  name: string;
  address: AddressDraft;
  gstin: string;
}

export type BillingErrors = FieldErrors;

export const billingDraftOf = (b: Billing | undefined): BillingDraft => ({
  name: b?.name ?? '',
  address: addressDraft(b?.address),
  gstin: b?.gstin ?? '',
});

/** Every field by the name errors use (the server's `field`), in the order the card shows them. */
export const BILLING_FIELDS: readonly string[] = ['name', ...ADDRESS_FIELDS.map((f) => `address.${f}`), 'gstin'];

/** The element id of a field's control: `billing-address-pin`. */
export const billingFieldId = (field: string) => `billing-${field.replace(/\./g, '-')}`;

/** The server's rules, checked before sending: each error keyed by its field. Empty: send it. */
export function validateBilling(d: BillingDraft): BillingErrors {
  const errors: BillingErrors = {};
  if (!d.name.trim()) errors.name = ADDRESS_MESSAGES.required;
  checkAddress(d.address, 'address', true, errors);
  const gstin = d.gstin.trim();
  if (gstin) {
    const problem = gstinProblem(gstin, d.address.state_code || null);
    if (problem) errors.gstin = gstinMessage(problem);
  }
  return errors;
}

/** The whole of them as PUT takes them: trimmed, no GSTIN null. */
export function billingBody(d: BillingDraft): PutBillingBody {
  const gstin = d.gstin.trim();
  return { name: d.name.trim(), address: addressBody(d.address), gstin: gstin === '' ? null : gstin };
}

/** The server's refusal under the field it names, when the card has that field; null otherwise (a toast). */
export function billingRefusal(err: unknown): { field: string; message: string } | null {
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION' || !err.field || !BILLING_FIELDS.includes(err.field)) return null;
  return { field: err.field, message: err.serverError ?? 'Check this field' };
}
