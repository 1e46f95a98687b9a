/** The new password's checks on the reset page, in the same limits as the server (shared LIMITS). */
import { LIMITS } from '@auction/shared';

export type NewPasswordField = 'password' | 'confirm';

export const PASSWORD_RULE = `Use at least ${LIMITS.passwordMin} characters (at most ${LIMITS.passwordMax})`;
export const PASSWORDS_DIFFER = 'The two passwords do not match';
export const LINK_USED = 'This link has expired or was already used.';

/** Each field's problem: the new password's length, and whether the confirmation matches it. */
export function newPasswordProblems(password: string, confirm: string): Partial<Record<NewPasswordField, string>> {
  const problems: Partial<Record<NewPasswordField, string>> = {};
  if (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax) problems.password = PASSWORD_RULE;
  if (confirm !== password) problems.confirm = PASSWORDS_DIFFER;
  return problems;
}
