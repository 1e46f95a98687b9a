/**
 * An email address as the forms check it before sending (register, the bidder's Account page, the
 * admin's Settings): the server's own pattern and length (shared EMAIL_PATTERN, LIMITS.emailMax), said
 * in plain words. The server compares addresses without case; the client sends them as typed, trimmed.
 */
import { EMAIL_PATTERN, LIMITS } from '@auction/shared';

const EMAIL = new RegExp(EMAIL_PATTERN);

export const EMAIL_INVALID = 'Enter an email address such as name@example.com';
export const EMAIL_TAKEN_TEXT = 'Another account has confirmed this email address: use another one';

/** The address to send: the text without the spaces people paste around it. */
export function normaliseEmail(text: string): string {
  return text.trim();
}

/** Null when `text` (already trimmed or not) is an address the server takes, else why not. */
export function emailProblem(text: string): string | null {
  const email = normaliseEmail(text);
  return email.length <= LIMITS.emailMax && EMAIL.test(email) ? null : EMAIL_INVALID;
}
