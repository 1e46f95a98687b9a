/** Money travels as rupees (a JSON number with at most 2 decimals) and lives as integer paise. */

/** True when `rupees` is a finite number with at most two decimals (1.15 passes, 1.155 does not). */
export function hasAtMostTwoDecimals(rupees: number): boolean {
  if (!Number.isFinite(rupees)) return false;
  const scaled = rupees * 100;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/** Rupees → integer paise. Call only on values that passed `hasAtMostTwoDecimals`. */
export function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

/** Integer paise → rupees for JSON (30050 → 300.5). */
export function toRupees(paise: number): number {
  return paise / 100;
}

const inr = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

/** ₹1,00,000 / ₹300.5: the one way amounts are written in messages and on screen. */
export function formatRupees(rupees: number): string {
  return `₹${inr.format(rupees)}`;
}
