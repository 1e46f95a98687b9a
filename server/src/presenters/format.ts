/** The small formats every presenter shares. */

import { zoneOffsetMs } from '@auction/shared';

let responseZone = 'Asia/Kolkata';
/** Offsets by quarter hour (every zone's changes fall on one): a response formats many times at once. */
const offsets = new Map<number, number>();
const QUARTER_HOUR = 900_000;

/** The zone answers carry their times in: `TIMEZONE`, set once when the app is built. */
export function setResponseTimeZone(timeZone: string) {
  if (timeZone !== responseZone) offsets.clear();
  responseZone = timeZone;
  offsetAt(Date.now());
}

function offsetAt(ms: number): number {
  const quarter = Math.floor(ms / QUARTER_HOUR);
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    if (offsets.size > 4096) offsets.clear();
    offset = zoneOffsetMs(quarter * QUARTER_HOUR, responseZone);
    offsets.set(quarter, offset);
  }
  return offset;
}

/**
 * Epoch ms → the ISO string every response carries, in TIMEZONE's offset (`2026-11-24T07:45:00.000+05:30`;
 * `Z` when the offset is zero),
 * so that a client which sends back the first 16 characters it read (as a datetime-local input does) names
 * the same instant: the server reads a date-time without an offset in TIMEZONE (docs/money.md#times).
 */
export function iso(ms: number): string {
  const offset = offsetAt(ms);
  if (offset === 0) return new Date(ms).toISOString();
  const wall = new Date(ms + offset).toISOString().slice(0, 23);
  const minutes = Math.abs(offset) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${wall}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

/**
 * A bidder as other people see them: at most a third of the username shown, never more than its first
 * and last character, and always three asterisks between, so the mask does not tell the length.
 * `ravi_k` → `r***k` (2 of 6), `alice` → `a***` (1 of 5), `abc` → `a***` (1 of 3), `ab` → `***`.
 */
export function maskUsername(username: string): string {
  const chars = [...username];
  const shown = Math.min(2, Math.floor(chars.length / 3));
  return `${shown >= 1 ? chars[0] : ''}***${shown === 2 ? chars.at(-1) : ''}`;
}

/** Whole seconds until `end`, rounded up (0 once it has passed). */
export const secondsLeft = (end: number, now: number) => Math.max(0, Math.ceil((end - now) / 1000));

export type AuctionStatus = 'active' | 'ended' | 'settled';

export function auctionStatus(a: { validUntil: number; settledAt: number | null }, now: number): AuctionStatus {
  if (a.settledAt !== null) return 'settled';
  return now >= a.validUntil ? 'ended' : 'active';
}

// The zone's formatter is built now, not on the first answer (a live frame's server_time among them):
// building an Intl.DateTimeFormat takes milliseconds.
offsetAt(Date.now());
