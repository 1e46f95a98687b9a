/**
 * The sign-up form's checks in plain words, before the request and for the server's refusals: the
 * same limits as the server (shared LIMITS), said with the field's label, never the API's field name
 * ("mobile_number must be …").
 */
import { LIMITS } from '@auction/shared';
import { ApiError } from '../../../lib/api-client';
import { EMAIL_INVALID, EMAIL_TAKEN_TEXT, emailProblem } from '../../../lib/email';

export type RegisterField = 'name' | 'username' | 'mobile_number' | 'email' | 'password';

/** In the form's order. */
export const REGISTER_LABELS: Record<RegisterField, string> = {
  name: 'Full Name',
  username: 'Username',
  mobile_number: 'Mobile Number',
  email: 'Email (optional)',
  password: 'Password',
};

/** The one field that may stay empty. */
const OPTIONAL: readonly RegisterField[] = ['email'];

/** Admins get no notices: their address is for password resets alone. */
export const ADMIN_EMAIL_HINT = 'To reset a forgotten password; we will send a link to confirm it';

/** Shown under each field from the start, so a rule is known before it fails. */
export const REGISTER_HINTS: Partial<Record<RegisterField, string>> = {
  username: `${LIMITS.usernameMin}–${LIMITS.usernameMax} letters or digits; _ . - allowed, no spaces`,
  mobile_number: `${7}–${15} digits; a leading + is fine`,
  email: 'To reset a forgotten password and get notices by email; we will send a link to confirm it',
  password: `At least ${LIMITS.passwordMin} characters`,
};

const RULES: Record<RegisterField, string> = {
  name: `Enter your name (at most ${LIMITS.nameMax} characters)`,
  username: `Use ${LIMITS.usernameMin} to ${LIMITS.usernameMax} letters or digits; only _ . and - besides, and no spaces`,
  mobile_number: 'Enter 7 to 15 digits; a leading + is fine',
  email: EMAIL_INVALID,
  password: `Use at least ${LIMITS.passwordMin} characters (at most ${LIMITS.passwordMax})`,
};

/** A mobile number as people type it ("+91 98765-43210") in the form the server takes ("+919876543210"). */
export function normaliseMobile(text: string): string {
  return text.trim().replace(/[\s()-]/g, '');
}

/** The first problem of each field, in plain words; an empty required field is "… is required". */
export function registerProblems(values: Record<RegisterField, string>): Partial<Record<RegisterField, string>> {
  const problems: Partial<Record<RegisterField, string>> = {};
  for (const field of Object.keys(REGISTER_LABELS) as RegisterField[]) {
    if (OPTIONAL.includes(field)) continue;
    const value = field === 'password' ? values[field] : values[field].trim();
    if (value === '') problems[field] = `${REGISTER_LABELS[field]} is required`;
  }
  const name = values.name.trim();
  if (!problems.name && name.length > LIMITS.nameMax) problems.name = RULES.name;
  if (!problems.username && !new RegExp(LIMITS.usernamePattern).test(values.username.trim())) problems.username = RULES.username;
  if (!problems.mobile_number && !new RegExp(LIMITS.mobilePattern).test(normaliseMobile(values.mobile_number))) problems.mobile_number = RULES.mobile_number;
  if (values.email.trim() !== '' && emailProblem(values.email)) problems.email = RULES.email;
  const { password } = values;
  if (!problems.password && (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax)) problems.password = RULES.password;
  return problems;
}

/**
 * A refusal of the server as an error under its field, in the same words as the checks above; null
 * when it concerns no field of the form (the caller toasts it).
 */
export function fieldOfRefusal(err: unknown): { field: RegisterField; message: string } | null {
  if (!(err instanceof ApiError)) return null;
  if (err.code === 'USERNAME_TAKEN') return { field: 'username', message: 'This username is taken: choose another' };
  if (err.code === 'EMAIL_TAKEN') return { field: 'email', message: EMAIL_TAKEN_TEXT };
  const field = err.field as RegisterField | undefined;
  if (err.code !== 'VALIDATION' || !field || !(field in REGISTER_LABELS)) return null;
  return { field, message: RULES[field] };
}
