/** Display rules shared by every screen: money, dates, countdowns and the auction badge. */
import { AMBER_BADGE_SECONDS, formatRupees } from '@auction/shared';

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

export type Tone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

/** Ended (red); Active in amber under 1 hour; otherwise Active in green. */
export function auctionBadge(seconds: number): { label: 'Ended' | 'Active'; tone: Tone } {
  if (seconds <= 0) return { label: 'Ended', tone: 'danger' };
  return { label: 'Active', tone: seconds < AMBER_BADGE_SECONDS ? 'warning' : 'success' };
}

/** Bid statuses as users see them (docs/money.md#bid-statuses); an unknown status reads as failed. */
export function bidStatusLabel(status: string): { label: string; tone: Tone | 'info' } {
  switch (status) {
    case 'success': return { label: 'Active', tone: 'success' };
    case 'outbid': return { label: 'Outbid', tone: 'neutral' };
    case 'rolledback': return { label: 'Cancelled', tone: 'warning' };
    case 'won': return { label: 'Won', tone: 'info' };
    default: return { label: 'Failed', tone: 'danger' };
  }
}
