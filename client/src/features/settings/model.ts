/** The Settings forms' checks (spec §5 words for the password, DESIGN §3 limits for the profile). */
import { LIMITS } from '@auction/shared';

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

/** Spec §5: the two new passwords must match, then be at least 6 characters long. */
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
