/** The Settings forms' checks (the fixed password messages, the shared LIMITS for the profile) and the system panel's rows. */
import { formatRupees, LIMITS, type AdminSettings } from '@auction/shared';
import type { Tone } from '../../components/ui/Badge';
import { DEFAULT_DURATION_DAYS } from '../../lib/admin-settings';

export const PASSWORD_MISMATCH = 'New passwords do not match';
export const PASSWORD_TOO_SHORT = `Password must be at least ${LIMITS.passwordMin} characters long`;
export const CURRENT_REQUIRED = 'Enter your current password';
export const NAME_REQUIRED = 'Enter your full name';
export const MOBILE_INVALID = 'Enter a mobile number of 7 to 15 digits (an optional leading +)';

export interface PasswordDraft {
  current: string;
  next: string;
  confirm: string;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** The two new passwords must match, then be at least 6 characters long. */
export function validatePasswordChange(d: PasswordDraft): FieldErrors<keyof PasswordDraft> {
  const errors: FieldErrors<keyof PasswordDraft> = {};
  if (!d.current) errors.current = CURRENT_REQUIRED;
  if (d.next !== d.confirm) errors.confirm = PASSWORD_MISMATCH;
  else if (d.next.length < LIMITS.passwordMin) errors.next = PASSWORD_TOO_SHORT;
  return errors;
}

export interface ProfileDraft {
  name: string;
  mobile: string;
}

const MOBILE = new RegExp(LIMITS.mobilePattern);

export function validateProfile(d: ProfileDraft): FieldErrors<keyof ProfileDraft> {
  const errors: FieldErrors<keyof ProfileDraft> = {};
  if (!d.name.trim()) errors.name = NAME_REQUIRED;
  if (!MOBILE.test(d.mobile.trim())) errors.mobile = MOBILE_INVALID;
  return errors;
}

export interface SystemItem {
  label: string;
  value: string;
  /** Shown as a badge when set. */
  tone?: Tone;
  note: string;
}

/**
 * The original System Settings panel's four settings first (default auction duration, minimum bid
 * increment, auto settlement, notifications), with the values the product really uses, then the rest of the server's.
 */
export function systemItems(s: AdminSettings): SystemItem[] {
  return [
    { label: 'Default auction duration', value: `${DEFAULT_DURATION_DAYS} days`, note: 'Create Auction proposes an end this far ahead' },
    { label: 'Minimum bid increment', value: formatRupees(s.min_increment), note: 'The default step (flat ₹1); each auction may choose its own flat step, the ladder (steps grow with the price) or its own price bands' },
    { label: 'Auto settlement', value: s.auto_settle ? 'Enabled' : 'Disabled', tone: s.auto_settle ? 'success' : 'neutral', note: 'Auctions settle by themselves when they end' },
    { label: 'Notifications', value: 'Enabled', tone: 'success', note: 'Bidders are told live when they are outbid, win or lead again' },
    { label: 'Soft close', value: s.soft_close_s === 0 ? 'Off' : `${durationText(s.soft_close_s)}, up to ${durationText(s.max_extension_s)}`, note: 'New auctions: a late leading bid extends the end by this much, at most this far' },
    { label: 'Photo uploads', value: `${s.media_max_mb} MB`, note: 'The largest photo a product may get (JPEG, PNG or WebP, 10 per product)' },
    { label: 'Admin signup', value: s.admin_signup === 'open' ? 'Open' : 'Closed', tone: s.admin_signup === 'open' ? 'success' : 'warning', note: 'Whether new admins may register' },
    { label: 'Live frame', value: `${s.live_frame_ms} ms`, note: 'How often live updates are sent' },
    { label: 'Time zone', value: s.timezone, note: 'For auction end times entered without one' },
  ];
}

/** 120 → "2 min", 90 → "90 s", 3600 → "1 h". */
export function durationText(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
