/**
 * The public calls behind the links our emails carry and the forgot-password form (docs/email.md).
 * None carries a token of ours: the link's own token is the proof.
 */
import type { ForgotPasswordBody, MessageBody, ResetPasswordBody, TokenBody, UndoEmailBody, Unsubscribed } from '@auction/shared';
import { api } from '../../../lib/api-client';
import type { Portal } from './auth-api';

const none = { as: 'none' } as const;

/**
 * POST /password/forgot: `email` when the text has an @, else `username`. Always 202 with the same
 * message whether or not an account matches, so the page never learns (nor shows) which.
 */
export function requestPasswordReset(portal: Portal, text: string): Promise<MessageBody> {
  const value = text.trim();
  const body: ForgotPasswordBody = value.includes('@') ? { email: value, role: portal } : { username: value, role: portal };
  return api.post<MessageBody>('/password/forgot', body, none);
}

/** POST /password/reset → 204; every session of the account is signed out. */
export async function resetPassword(body: ResetPasswordBody): Promise<void> {
  await api.post<unknown>('/password/reset', body, none);
}

/** POST /email/verify → 204. */
export async function verifyEmail(token: string): Promise<void> {
  await api.post<unknown>('/email/verify', { token } satisfies TokenBody, none);
}

// A link's token works once: a second POST (React's StrictMode mounting the page twice, a remount) would
// answer TOKEN_INVALID after the first succeeded. So each token is sent once per page load and every
// caller shares that one answer; only a failure is forgotten, so that "Try again" sends it again.
const verifications = new Map<string, Promise<void>>();

/** `verifyEmail`, once per token while the page is loaded (again only after a failure). */
export function verifyEmailOnce(token: string): Promise<void> {
  let sent = verifications.get(token);
  if (!sent) {
    sent = verifyEmail(token);
    verifications.set(token, sent);
    sent.catch(() => verifications.delete(token));
  }
  return sent;
}

/**
 * POST /email/undo → 204: the address an account's email change replaced (or its removal took away) is
 * its confirmed one again (a new one is dropped), the password is the one given, and every session of
 * the account ends.
 */
export async function undoEmailChange(body: UndoEmailBody): Promise<void> {
  await api.post<unknown>('/email/undo', body, none);
}

/** POST /unsubscribe → the server's message and the kind of notice no longer mailed. */
export function unsubscribe(token: string): Promise<Unsubscribed> {
  return api.post<Unsubscribed>('/unsubscribe', { token } satisfies TokenBody, none);
}
