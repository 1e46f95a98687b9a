/**
 * The House page's rules (docs/invoices.md): the form's draft of a house profile, the checks the server makes
 * (shared/src/gst.ts, HOUSE_LIMITS) made before sending, the whole profile as PUT /admin/house takes it,
 * and where the server's refusal is shown.
 */
import {
  ACCOUNT_NUMBER_PATTERN, EMAIL_PATTERN, HOUSE_LIMITS, IFSC_PATTERN, LIMITS, gstinProblem, type House, type PutHouseBody,
} from '@auction/shared';
import {
  ADDRESS_MESSAGES, EMPTY_ADDRESS, addressBody, addressDraft, addressFilled, checkAddress, gstinMessage, type AddressDraft,
} from '../../lib/address/address';
import { ApiError } from '../../lib/api-client';

export type { AddressDraft };

export interface LocationDraft {
  /** React's key: `id-7` for a stored location, `new-3` for one added on this page. */
  key: string;
  /** The stored location's id (kept by the server); none for a new one. */
  id?: number;
  name: string;
  address: AddressDraft;
  hours: string;
  instructions: string;
}

export interface HouseDraft {
  legal_name: string;
  display_name: string;
  gstin: string;
  invoice_prefix: string;
  phone: string;
  email: string;
  address: AddressDraft;
  payout: { holder: string; ifsc: string; account_number: string };
  pickup_locations: LocationDraft[];
}

/**
 * Errors by the field the server would name: `legal_name`, `address.pin`, `payout.account_number`,
 * `pickup_locations[0].address.city`, `pickup_locations[0].id` (a location as a whole).
 */
export type HouseErrors = Partial<Record<string, string>>;

/** The form's draft of what the server answered (the account number as it came: masked). */
export function draftOf(h: House): HouseDraft {
  return {
    legal_name: h.legal_name ?? '',
    display_name: h.display_name ?? '',
    gstin: h.gstin ?? '',
    invoice_prefix: h.invoice_prefix ?? '',
    phone: h.phone ?? '',
    email: h.email ?? '',
    address: addressDraft(h.address),
    payout: h.payout ? { ...h.payout } : { holder: '', ifsc: '', account_number: '' },
    pickup_locations: h.pickup_locations.map((l) => ({
      key: `id-${l.id}`, id: l.id, name: l.name, address: addressDraft(l.address), hours: l.hours ?? '', instructions: l.instructions ?? '',
    })),
  };
}

let nextKey = 1;
/** A new, empty pickup location (no id: the server creates it). */
export function newLocation(): LocationDraft {
  return { key: `new-${nextKey++}`, name: '', address: { ...EMPTY_ADDRESS }, hours: '', instructions: '' };
}

const MISSING_NAMES: Record<string, string> = { legal_name: 'legal name', address: 'address' };
/** `missing` in words: "legal name, address". */
export const missingText = (missing: readonly string[]) => missing.map((m) => MISSING_NAMES[m] ?? m.replaceAll('_', ' ')).join(', ');

/** Whether the stored account number is kept: the field still shows what the server sent (`••1234`). */
const MASKED = /^••[0-9]{4}$/;

export const MESSAGES = {
  ...ADDRESS_MESSAGES,
  prefix: 'Use 1–5 capital letters or digits, e.g. RAO',
  phone: 'Enter a phone number of 7 to 15 digits (an optional leading +)',
  email: 'Enter an email address such as name@example.com',
  payoutTogether: 'A payout account needs the holder, the IFSC and the account number',
  ifsc: 'Enter an IFSC such as HDFC0001234: four letters, a zero, six letters or digits',
  account: 'Enter the account number: 9–18 digits',
  locationName: 'Give the location a name',
  tooMany: `At most ${HOUSE_LIMITS.pickupLocationsMax} pickup locations`,
} as const;

const test = (pattern: string, value: string) => new RegExp(pattern).test(value);

/** The server's rules, checked before sending: each error keyed by its field. Empty: send it. */
export function validateHouse(d: HouseDraft): HouseErrors {
  const errors: HouseErrors = {};
  checkAddress(d.address, 'address', false, errors);
  const gstin = d.gstin.trim();
  if (gstin) {
    const problem = gstinProblem(gstin, d.address.state_code || null);
    if (problem) errors.gstin = gstinMessage(problem);
  }
  const prefix = d.invoice_prefix.trim();
  if (prefix && !test(HOUSE_LIMITS.prefixPattern, prefix)) errors.invoice_prefix = MESSAGES.prefix;
  const phone = d.phone.trim();
  if (phone && !test(LIMITS.mobilePattern, phone)) errors.phone = MESSAGES.phone;
  const email = d.email.trim();
  if (email && (email.length > LIMITS.emailMax || !test(EMAIL_PATTERN, email))) errors.email = MESSAGES.email;

  const p = d.payout;
  if ([p.holder, p.ifsc, p.account_number].some((v) => v.trim() !== '')) {
    if (!p.holder.trim()) errors['payout.holder'] = MESSAGES.payoutTogether;
    const ifsc = p.ifsc.trim();
    if (!ifsc) errors['payout.ifsc'] = MESSAGES.payoutTogether;
    else if (!test(IFSC_PATTERN, ifsc)) errors['payout.ifsc'] = MESSAGES.ifsc;
    const account = accountOf(p.account_number);
    if (!account) errors['payout.account_number'] = MESSAGES.payoutTogether;
    else if (!MASKED.test(account) && !test(ACCOUNT_NUMBER_PATTERN, account)) errors['payout.account_number'] = MESSAGES.account;
  }

  if (d.pickup_locations.length > HOUSE_LIMITS.pickupLocationsMax) errors.pickup_locations = MESSAGES.tooMany;
  d.pickup_locations.forEach((l, i) => {
    if (!l.name.trim()) errors[`pickup_locations[${i}].name`] = MESSAGES.locationName;
    checkAddress(l.address, `pickup_locations[${i}].address`, true, errors);
  });
  return errors;
}

/** Spaces are only a help to the eye in an account number. */
const accountOf = (s: string) => s.replace(/\s+/g, '');

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

/** The whole profile as PUT takes it: empty is null, the masked account number sent back as it is. */
export function bodyOf(d: HouseDraft): PutHouseBody {
  const p = d.payout;
  const payoutFilled = [p.holder, p.ifsc, p.account_number].some((v) => v.trim() !== '');
  return {
    legal_name: orNull(d.legal_name),
    display_name: orNull(d.display_name),
    address: addressFilled(d.address) ? addressBody(d.address) : null,
    gstin: orNull(d.gstin),
    invoice_prefix: orNull(d.invoice_prefix),
    phone: orNull(d.phone),
    email: orNull(d.email),
    payout: payoutFilled ? { holder: p.holder.trim(), ifsc: p.ifsc.trim(), account_number: accountOf(p.account_number) } : null,
    pickup_locations: d.pickup_locations.map((l) => ({
      ...(l.id !== undefined ? { id: l.id } : {}),
      name: l.name.trim(),
      address: addressBody(l.address),
      hours: orNull(l.hours),
      instructions: orNull(l.instructions),
    })),
  };
}

/** A schema path (`pickup_locations.0.address.pin`) as the form names it (`pickup_locations[0].address.pin`). */
export const fieldName = (field: string) => field.replace(/\.(\d+)(?=\.|$)/g, '[$1]');

/**
 * The server's refusal under the field it names, when the form has that field (`fields`); null when it
 * names none of them (shown as a toast).
 */
export function refusalField(err: unknown, fields: ReadonlySet<string>): { field: string; message: string } | null {
  if (!(err instanceof ApiError) || !err.field || (err.code !== 'VALIDATION' && err.code !== 'INVOICE_PREFIX_TAKEN')) return null;
  const field = fieldName(err.field);
  if (!fields.has(field)) return null;
  return { field, message: err.serverError ?? 'Check this field' };
}

/** Every field of a draft by the name errors use, in the order the page shows them. */
export function fieldsOf(d: HouseDraft): string[] {
  const address = (p: string) => ['line1', 'line2', 'city', 'state_code', 'pin'].map((f) => `${p}.${f}`);
  return [
    'legal_name', 'display_name', 'gstin', 'invoice_prefix',
    ...address('address'),
    'phone', 'email',
    'payout.holder', 'payout.ifsc', 'payout.account_number',
    'pickup_locations',
    ...d.pickup_locations.flatMap((_l, i) => [`pickup_locations[${i}].id`, `pickup_locations[${i}].name`, ...address(`pickup_locations[${i}].address`), `pickup_locations[${i}].hours`, `pickup_locations[${i}].instructions`]),
  ];
}

/** The element id of a field's control: `house-pickup_locations-0-address-pin`. */
export const fieldId = (field: string) => `house-${field.replace(/[[\].]+/g, '-').replace(/-$/, '')}`;
