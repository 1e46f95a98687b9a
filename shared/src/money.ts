/** Money travels as rupees (a JSON number with at most 2 decimals) and lives as integer paise. */

/**
 * True when `rupees` is a finite number with at most two decimals: 1.15, 0.29 and 99999.99 pass;
 * 1.155, 10.000000001 and 0.30000000000000004 do not. Exact, with no tolerance: it counts the decimals
 * of the shortest text that reads back as this number (`String(x)`, which gives "1.15" for the double
 * nearest 1.15), i.e. the decimals the JSON body spelled, as far as a double can tell them apart.
 * (`multipleOf: 0.01` fails 1.15; the tolerance |x·100 − round(x·100)| < 1e-6 let 10.000000001 in and
 * refused valid amounts above about ₹1 crore, such as 134247717.92.)
 */
export function hasAtMostTwoDecimals(rupees: number): boolean {
  if (!Number.isFinite(rupees)) return false;
  // "123.45", "1e+21", "1.5e-7": decimals = digits after the point minus the exponent.
  const [mantissa = '', exponent = '0'] = String(Math.abs(rupees)).split('e');
  const decimals = (mantissa.split('.')[1]?.length ?? 0) - Number(exponent);
  return decimals <= 2;
}

/** Rupees → integer paise. Call only on values that passed `hasAtMostTwoDecimals`. */
export function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

/** Integer paise → rupees for JSON (30050 → 300.5). */
export function toRupees(paise: number): number {
  return paise / 100;
}

/** The sum of rupee amounts, added in paise so decimals add up exactly (0.1 + 0.2 → 0.3). */
export function sumRupees(amounts: Iterable<number>): number {
  let paise = 0;
  for (const rupees of amounts) paise += toPaise(rupees);
  return toRupees(paise);
}

const whole = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
const withPaise = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const plainWhole = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0, useGrouping: false });
const plainWithPaise = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false });

/**
 * ₹1,00,000 / ₹300.50 / -₹12.05: the one way amounts are written, on screen, in messages and in exports.
 * A whole amount has no decimals; any other always has two (paise are never written as one digit).
 * `plain` leaves out the symbol and the grouping, for a spreadsheet's number cell: 100000 / 300.50 / -12.05.
 */
export function formatRupees(rupees: number, { plain = false }: { plain?: boolean } = {}): string {
  const paise = Math.round(rupees * 100);
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  const hasPaise = abs % 100 !== 0;
  const format = plain ? (hasPaise ? plainWithPaise : plainWhole) : (hasPaise ? withPaise : whole);
  return `${sign}${plain ? '' : '₹'}${format.format(abs / 100)}`;
}
