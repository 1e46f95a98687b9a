/**
 * An auction's bidding rules as the admin reads and writes them (docs/bidding.md): the increment rule,
 * soft close and its maximum extension. The server's limits and defaults are in
 * shared/src/schemas/catalogue.ts; the ladder's steps in shared/src/bidding-rules.ts.
 */
import { formatRupees, LADDER, LADDER_TOP_STEP, toRupees, type AdminAuction, type IncrementRule } from '@auction/shared';

export const INCREMENT_LABELS: Record<IncrementRule, string> = {
  flat: 'Flat (one step)',
  ladder: 'Ladder (grows with the price)',
  custom: 'Custom (your price bands)',
};

/** The rule in a few words, for the detail page. */
export const INCREMENT_SHORT: Record<IncrementRule, string> = { flat: 'Flat', ladder: 'Ladder', custom: 'Custom' };

/** "under ₹1,000: ₹10 · under ₹5,000: ₹50 · … · above: ₹1,000", the ladder's steps. */
export function ladderSteps(): string {
  const rungs = LADDER.map((r) => `under ${formatRupees(toRupees(r.below))}: ${formatRupees(toRupees(r.step))}`);
  return [...rungs, `above: ${formatRupees(toRupees(LADDER_TOP_STEP))}`].join(' · ');
}

export const SOFT_CLOSE_MAX_S = 3600;
export const MAX_EXTENSION_MAX_S = 86_400;

/** 45 → "45 s", 120 → "2 min", 90 → "1 min 30 s", 3600 → "1 h", 5400 → "1 h 30 min". */
export function formatSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h ? `${h} h` : '', m ? `${m} min` : '', s || total === 0 ? `${s} s` : ''].filter(Boolean);
  return parts.join(' ');
}

/** Soft close as the detail page says it: "Off", or "2 min (up to 1 h more)". */
export function describeSoftClose(a: Pick<AdminAuction, 'soft_close_s' | 'max_extension_s'>): string {
  if (a.soft_close_s === 0) return 'Off';
  return `${formatSeconds(a.soft_close_s)} (up to ${formatSeconds(a.max_extension_s)} more)`;
}

export type SecondsCheck = { ok: true; value: number | undefined } | { ok: false; error: string };

/** A seconds field: blank is "not given" (the server's default, or the current value on an edit); else a whole number from 0 to `max`. */
export function parseSeconds(text: string, label: string, max: number): SecondsCheck {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  const n = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n > max) return { ok: false, error: `${label} must be a whole number of seconds from 0 to ${max}` };
  return { ok: true, value: n };
}
