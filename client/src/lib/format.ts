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

export function formatDate(iso: string | number): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateOnly.format(d);
}

/** Seconds left until `validUntil` at server time `now` (never negative). */
export function secondsLeft(validUntil: string, now: number): number {
  return Math.max(0, Math.floor((Date.parse(validUntil) - now) / 1000));
}

/** Days, hours and minutes; or hours and minutes; or minutes only; "Ended" at 0. */
export function formatCountdown(seconds: number): string {
  if (seconds <= 0) return 'Ended';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h ${minutes}m`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}
