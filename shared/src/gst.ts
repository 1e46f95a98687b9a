/**
 * India's tax and bank identifiers as a house and a buyer give them (docs/invoices.md):
 * the GST state codes, GSTIN (with its check character), IFSC and PIN. Pure, shared by the server's
 * checks and the client's forms.
 */

/** GST state and union-territory codes in use, with their names (97: Other Territory). */
export const GST_STATES = {
  '01': 'Jammu and Kashmir', '02': 'Himachal Pradesh', '03': 'Punjab', '04': 'Chandigarh', '05': 'Uttarakhand',
  '06': 'Haryana', '07': 'Delhi', '08': 'Rajasthan', '09': 'Uttar Pradesh', '10': 'Bihar', '11': 'Sikkim',
  '12': 'Arunachal Pradesh', '13': 'Nagaland', '14': 'Manipur', '15': 'Mizoram', '16': 'Tripura', '17': 'Meghalaya',
  '18': 'Assam', '19': 'West Bengal', '20': 'Jharkhand', '21': 'Odisha', '22': 'Chhattisgarh', '23': 'Madhya Pradesh',
  '24': 'Gujarat', '26': 'Dadra and Nagar Haveli and Daman and Diu', '27': 'Maharashtra', '29': 'Karnataka', '30': 'Goa',
  '31': 'Lakshadweep', '32': 'Kerala', '33': 'Tamil Nadu', '34': 'Puducherry', '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana', '37': 'Andhra Pradesh', '38': 'Ladakh', '97': 'Other Territory',
} as const satisfies Record<string, string>;
export type GstStateCode = keyof typeof GST_STATES;
export const GST_STATE_CODES = (Object.keys(GST_STATES) as GstStateCode[]).sort();

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** State code, PAN (5 letters, 4 digits, a letter), entity number, `Z`, check character. */
export const GSTIN_PATTERN = '^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$';

/** The check character of a GSTIN's first 14 characters (the GSTN's base-36 scheme, weights 1 and 2 in turn). */
export function gstinCheckChar(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = BASE36.indexOf(first14[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36]!;
}

/** Why a GSTIN is not one, or null: its shape, its state code (and, given, that it is `stateCode`), its check character. */
export function gstinProblem(gstin: string, stateCode?: string | null): string | null {
  if (!new RegExp(GSTIN_PATTERN).test(gstin)) return 'gstin must be 15 characters: a state code, a PAN, an entity number, Z and a check character';
  if (!(gstin.slice(0, 2) in GST_STATES)) return 'gstin must begin with a GST state code';
  if (stateCode && gstin.slice(0, 2) !== stateCode) return 'gstin must begin with the state code of the address';
  if (gstinCheckChar(gstin.slice(0, 14)) !== gstin[14]) return 'gstin has a wrong check character: please check it for a typo';
  return null;
}

/** A bank branch's IFSC: four letters, a zero, six letters or digits. */
export const IFSC_PATTERN = '^[A-Z]{4}0[A-Z0-9]{6}$';
/** An Indian PIN code: six digits, the first not zero. */
export const PIN_PATTERN = '^[1-9][0-9]{5}$';
/** A bank account number as Indian banks issue them: 9 to 18 digits. */
export const ACCOUNT_NUMBER_PATTERN = '^[0-9]{9,18}$';

/** How an account number is shown once stored: its last four digits. */
export const maskAccountNumber = (n: string) => `••${n.slice(-4)}`;
