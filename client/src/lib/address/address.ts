/**
 * An address as a form holds it (docs/invoices.md): the draft of the five fields, the state select's
 * options, the checks the server makes (PIN_PATTERN, GST_STATES) made before sending, and the body
 * the server takes. Shared by the admin's House page and the bidder's billing details.
 */
import { GST_STATES, PIN_PATTERN, type Address, type GstStateCode } from '@auction/shared';

export interface AddressDraft {
  line1: string;
  line2: string;
  city: string;
  state_code: string;
  pin: string;
}

/** The fields of an address in the order a form shows them. */
export const ADDRESS_FIELDS = ['line1', 'line2', 'city', 'state_code', 'pin'] as const satisfies readonly (keyof AddressDraft)[];

export const EMPTY_ADDRESS: AddressDraft = { line1: '', line2: '', city: '', state_code: '', pin: '' };

/** The draft of an address the server sent (an empty one for none). */
export const addressDraft = (a: Address | null | undefined): AddressDraft =>
  a ? { line1: a.line1, line2: a.line2 ?? '', city: a.city, state_code: a.state_code, pin: a.pin } : { ...EMPTY_ADDRESS };

/** Whether any of the address's fields is filled in. */
export const addressFilled = (a: AddressDraft) => ADDRESS_FIELDS.some((f) => a[f].trim() !== '');

/** The GST states and territories by name, each with its code: the address's state select. */
export const STATE_OPTIONS: { code: GstStateCode; label: string }[] = (Object.entries(GST_STATES) as [GstStateCode, string][])
  .map(([code, name]) => ({ code, label: `${name} (${code})` }))
  .sort((a, b) => a.label.localeCompare(b.label));

export const ADDRESS_MESSAGES = {
  required: 'Fill this in',
  addressTogether: 'An address needs line 1, city, state and PIN',
  pin: 'Enter a PIN code of 6 digits, e.g. 411001',
} as const;

/** Errors by the field the server would name (`address.pin`). */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * The address's checks, its fields named under `prefix` (`address.pin`, `pickup_locations[0].address.pin`).
 * A required address needs line 1, city, state and PIN; an optional one needs them once any is filled in.
 */
export function checkAddress(a: AddressDraft, prefix: string, required: boolean, errors: FieldErrors): void {
  if (!addressFilled(a) && !required) return;
  const message = required ? ADDRESS_MESSAGES.required : ADDRESS_MESSAGES.addressTogether;
  if (!a.line1.trim()) errors[`${prefix}.line1`] = message;
  if (!a.city.trim()) errors[`${prefix}.city`] = message;
  if (!a.state_code) errors[`${prefix}.state_code`] = message;
  if (!a.pin.trim()) errors[`${prefix}.pin`] = message;
  else if (!new RegExp(PIN_PATTERN).test(a.pin.trim())) errors[`${prefix}.pin`] = ADDRESS_MESSAGES.pin;
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

/** The address as the server takes it: trimmed, an empty line 2 null. */
export function addressBody(a: AddressDraft): Address {
  return { line1: a.line1.trim(), line2: orNull(a.line2), city: a.city.trim(), state_code: a.state_code, pin: a.pin.trim() };
}

/** The shared GSTIN rule's sentence (gstinProblem), said to a person: "GSTIN has a wrong check character: …". */
export const gstinMessage = (problem: string) => problem.replace(/^gstin /, 'GSTIN ');
