/**
 * What the settle action says (docs/bidding.md): on an auction still running it ends bidding early, and
 * says so with how early; on an ended one it settles, in the spec's words.
 */
import { secondsLeft } from '../../../lib/format';

export const CONFIRM_SETTLE = 'Are you sure you want to settle this auction? This action cannot be undone.';

export interface SettleWording {
  /** The button. */
  label: string;
  /** The button's tooltip. */
  title: string;
  dialogTitle: string;
  message: string;
  confirmLabel: string;
}

/** How long before the set end: "40 s", "12 min", "3 h 5 min", "2 days 4 h" (minutes rounded up). */
export function timeBeforeEnd(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} days` : `${days} days ${hours % 24} h`;
}

export function settleWording(auction: { name: string; valid_until: string }, now: number): SettleWording {
  const left = secondsLeft(auction.valid_until, now);
  if (left <= 0) {
    return { label: 'Settle', title: `Settle ${auction.name} now`, dialogTitle: 'Settle Auction', message: CONFIRM_SETTLE, confirmLabel: 'Settle' };
  }
  return {
    label: 'End early',
    title: `End ${auction.name} now, ${timeBeforeEnd(left)} before its set end`,
    dialogTitle: 'End Auction Early',
    message: `Bidding stops now, ${timeBeforeEnd(left)} before the set end; leaders win at their current price. This action cannot be undone.`,
    confirmLabel: 'End now',
  };
}
