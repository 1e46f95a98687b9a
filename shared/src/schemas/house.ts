/**
 * A house's profile (docs/invoices.md): the seller of record on its invoices, where its
 * buyers collect, and where its money is paid out. Every field may be left empty while the house sets
 * up; invoices need a name, an address and its state (`missing` says what is left), and settling a sale
 * with a winner will require them.
 */
import { Type, type Static } from 'typebox';
import { ACCOUNT_NUMBER_PATTERN, GSTIN_PATTERN, GST_STATE_CODES, IFSC_PATTERN, PIN_PATTERN } from '../gst.js';
import { MobileNumber, VisibleText, X_ERROR } from './common.js';
import { Email } from './email.js';

export const HOUSE_LIMITS = { lineMax: 120, cityMax: 60, hoursMax: 200, instructionsMax: 1000, pickupLocationsMax: 20, prefixPattern: '^[A-Z0-9]{1,5}$' } as const;

/** One line people read: 1–max visible characters. */
function Line(field: string, max: number) {
  return Type.String({ minLength: 1, maxLength: max, [X_ERROR]: `${field} must be 1–${max} characters`, allOf: [VisibleText(field)] });
}
const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Object>>(t: T) => Type.Union([t, Type.Null()]);

export const StateCode = Type.String({ enum: GST_STATE_CODES, [X_ERROR]: 'state_code must be a two-digit GST state code such as 27 (Maharashtra)' });

export const Address = Type.Object({
  line1: Line('address.line1', HOUSE_LIMITS.lineMax),
  line2: Type.Optional(nullable(Line('address.line2', HOUSE_LIMITS.lineMax))),
  city: Line('address.city', HOUSE_LIMITS.cityMax),
  state_code: StateCode,
  pin: Type.String({ pattern: PIN_PATTERN, [X_ERROR]: 'address.pin must be a PIN code of 6 digits' }),
}, { additionalProperties: false });
export type Address = Static<typeof Address>;

export const Gstin = Type.String({ pattern: GSTIN_PATTERN, [X_ERROR]: 'gstin must be 15 characters: a state code, a PAN, an entity number, Z and a check character' });

export const PickupLocationInput = Type.Object({
  /** An existing location's id keeps it (and what points at it); without one it is a new location. */
  id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, [X_ERROR]: 'pickup_locations[].id must be the id of one of your pickup locations' })),
  name: Line('pickup_locations[].name', HOUSE_LIMITS.lineMax),
  address: Address,
  instructions: Type.Optional(nullable(Type.String({ maxLength: HOUSE_LIMITS.instructionsMax, [X_ERROR]: `pickup_locations[].instructions must be at most ${HOUSE_LIMITS.instructionsMax} characters`, allOf: [VisibleText('pickup_locations[].instructions', { multiline: true })] }))),
  hours: Type.Optional(nullable(Line('pickup_locations[].hours', HOUSE_LIMITS.hoursMax))),
}, { additionalProperties: false });

export const PutHouseBody = Type.Object({
  legal_name: nullable(Line('legal_name', HOUSE_LIMITS.lineMax)),
  display_name: nullable(Line('display_name', HOUSE_LIMITS.lineMax)),
  address: nullable(Address),
  gstin: nullable(Gstin),
  invoice_prefix: nullable(Type.String({ pattern: HOUSE_LIMITS.prefixPattern, [X_ERROR]: 'invoice_prefix must be 1–5 capital letters or digits' })),
  phone: nullable(MobileNumber),
  email: nullable(Email),
  payout: nullable(Type.Object({
    holder: Line('payout.holder', HOUSE_LIMITS.lineMax),
    ifsc: Type.String({ pattern: IFSC_PATTERN, [X_ERROR]: 'payout.ifsc must be an IFSC such as HDFC0001234: four letters, a zero, six letters or digits' }),
    /** The whole number, or the masked one this page was given (`••1234`): then the stored number stays. */
    account_number: Type.String({ pattern: `${ACCOUNT_NUMBER_PATTERN}|^••[0-9]{4}$`, [X_ERROR]: 'payout.account_number must be 9–18 digits' }),
  }, { additionalProperties: false })),
  pickup_locations: Type.Array(PickupLocationInput, { maxItems: HOUSE_LIMITS.pickupLocationsMax, [X_ERROR]: `pickup_locations must be at most ${HOUSE_LIMITS.pickupLocationsMax} locations` }),
}, { additionalProperties: false });
export type PutHouseBody = Static<typeof PutHouseBody>;

export const PickupLocation = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  address: Address,
  instructions: Type.Union([Type.String(), Type.Null()]),
  hours: Type.Union([Type.String(), Type.Null()]),
});
export type PickupLocation = Static<typeof PickupLocation>;

/** What invoices need and the profile lacks (settling a sale with a winner will require them). */
export const HOUSE_REQUIRED = ['legal_name', 'address'] as const;

export const House = Type.Object({
  legal_name: Type.Union([Type.String(), Type.Null()]),
  display_name: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Address, Type.Null()]),
  gstin: Type.Union([Type.String(), Type.Null()]),
  invoice_prefix: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  payout: Type.Union([Type.Object({ holder: Type.String(), ifsc: Type.String(), account_number: Type.String({ description: 'Masked: ••1234' }) }), Type.Null()]),
  pickup_locations: Type.Array(PickupLocation),
  missing: Type.Array(Type.String({ enum: [...HOUSE_REQUIRED] }), { description: 'What invoices need and the profile lacks' }),
  updated_at: Type.Union([Type.String(), Type.Null()]),
});
export type House = Static<typeof House>;

/**
 * A buyer's billing details (docs/invoices.md): who an invoice is made out to, copied and frozen onto each
 * invoice at issue. A business buyer gives its GSTIN (its state must be the address's).
 */
export const PutBillingBody = Type.Object({
  name: Line('name', HOUSE_LIMITS.lineMax),
  address: Address,
  gstin: nullable(Gstin),
}, { additionalProperties: false });
export type PutBillingBody = Static<typeof PutBillingBody>;

export const Billing = Type.Object({
  /** Each null until the buyer gives them: invoices then carry the account's name and the house's state as place of supply. */
  name: Type.Union([Type.String(), Type.Null()]),
  address: Type.Union([Address, Type.Null()]),
  gstin: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.Union([Type.String(), Type.Null()]),
});
export type Billing = Static<typeof Billing>;
