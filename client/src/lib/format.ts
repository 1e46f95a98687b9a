/** Display rules shared by every screen: money, dates and countdowns (status badges: components/ui/StatusBadge.tsx). */
import { formatRupees } from '@auction/shared';

export { formatRupees };

const dateTime = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium' });
// Same style with seconds ("1 Mar 2026, 3:35:07 pm"): bids in a live feed often land within one minute.
const dateTimeSeconds = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'medium' });

export function formatDateTime(iso: string | number): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateTime.format(d);
}

/** As formatDateTime, with seconds (the admin's live bid feed). */
export function formatDateTimeSeconds(iso: string | number): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateTimeSeconds.format(d);
}

/**
 * An auction's end: with seconds when they matter (soft close moved it, or it ends within the hour,
 * where a countdown in seconds runs beside it), else to the minute.
 */
export function formatEndTime(validUntil: string, a: { extended: boolean; secondsLeft: number }): string {
  return a.extended || (a.secondsLeft > 0 && a.secondsLeft <= 3600) ? formatDateTimeSeconds(validUntil) : formatDateTime(validUntil);
}

export function formatDate(iso: string | number): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateOnly.format(d);
}

/** Seconds left until `validUntil` at server time `now` (never negative). */
export function secondsLeft(validUntil: string, now: number): number {
  return Math.max(0, Math.floor((Date.parse(validUntil) - now) / 1000));
}

/** Under this many seconds left a countdown turns red (`countdownUrgent`). */
export const URGENT_SECONDS = 5 * 60;

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Days, hours and minutes ("2d 3h 5m"); hours and minutes ("2h 59m"); under an hour minutes and
 * seconds ("59m 59s", "4m 05s"); under a minute seconds ("42s"); "Ended" at 0.
 */
export function formatCountdown(seconds: number): string {
  if (seconds <= 0) return 'Ended';
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = s % 60;
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${pad2(secs)}s`;
  return `${secs}s`;
}

/** A countdown still running with less than URGENT_SECONDS left (shown red). */
export function countdownUrgent(seconds: number): boolean {
  return seconds > 0 && seconds < URGENT_SECONDS;
}

/**
 * A length of time in the largest whole unit that says it exactly: 3600 → "1 h", 120 → "2 min",
 * 90 → "90 s" (the soft-close window: "Bids in the last 2 min extend the auction").
 */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s > 0 && s % 3600 === 0) return `${s / 3600} h`;
  if (s > 0 && s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}
