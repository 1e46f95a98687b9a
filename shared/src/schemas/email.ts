/** Email addresses, password reset by email and notice emails (docs/email.md). */
import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { Password, Text, X_ERROR } from './common.js';
import { literalUnion, NOTIFICATION_KINDS } from './enums.js';

/**
 * An address as people type it: one `@`, no spaces (line separators among them), control or
 * text-direction characters, and a domain of dot-separated labels, the last of two characters or
 * more; nowhere `=?`, the start of an RFC 2047 encoded-word (`=?utf-8?q?…?=`), which a mail program
 * decodes into other text than the address the mail went to (a comma and a second address, say). The
 * server stores it lower-cased (addresses are compared without case) and confirms it by sending a link
 * to it. Written without `\p{…}` classes, so the client's `new RegExp(EMAIL_PATTERN)` reads it the
 * same without the `u` flag.
 */
const NOT_IN_ADDRESS = '\\s@<>()\\[\\],;:"\\\\\\x00-\\x1F\\x7F-\\x9F\\u202A-\\u202E\\u2066-\\u2069';
export const EMAIL_PATTERN = `^(?!.*=\\?)[^${NOT_IN_ADDRESS}]+@(?:[^${NOT_IN_ADDRESS}.]+\\.)+[^${NOT_IN_ADDRESS}.]{2,}$`;
export const Email = Type.String({
  maxLength: LIMITS.emailMax, pattern: EMAIL_PATTERN,
  [X_ERROR]: 'email must be an email address such as name@example.com',
});

/** The token of a link the server mailed (`/reset-password?token=…`, `/verify-email?token=…`, `/unsubscribe?token=…`). */
export const LinkToken = Type.String({ minLength: 1, maxLength: 512, [X_ERROR]: 'token must be the token from the link' });

/** How long a password reset link works, an address confirmation link, and the link that undoes an address change. */
export const RESET_LINK_MINUTES = 30;
export const VERIFY_LINK_HOURS = 24;
export const UNDO_LINK_DAYS = 7;

/** The kinds of notice mailed unless the bidder turns them off; the rest only once turned on. */
export const EMAIL_NOTICE_DEFAULTS = ['won', 'outbid', 'ending_soon'] as const satisfies readonly (typeof NOTIFICATION_KINDS)[number][];
/** At most one outbid email per lot per bidder within this many minutes. */
export const OUTBID_MAIL_MINUTES = 10;

export const Me = Type.Object({
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  id: Type.Integer(),
  username: Type.String(),
  name: Type.String(),
  mobile_number: Type.String(),
  is_owner: Type.Optional(Type.Boolean({ description: 'Admins only' })),
  email: Type.Union([Type.String(), Type.Null()], { description: 'The address last given: the confirmed one, or one waiting for its link to be opened' }),
  email_verified: Type.Boolean({ description: 'Whether `email` is confirmed; only a confirmed address gets mail' }),
  confirmed_email: Type.Union([Type.String(), Type.Null()], { description: 'The address mail goes to now: `email` once confirmed, or until then the one confirmed before (null: none)' }),
});
export type Me = Static<typeof Me>;

/** The current password too: a session alone (a token left on a shared computer) cannot move the account's mail elsewhere. */
export const SetEmailBody = Type.Object({ email: Email, password: Text('password', LIMITS.passwordMax) });
export type SetEmailBody = Static<typeof SetEmailBody>;

/** DELETE /me/email: the current password too, as for a change (a session alone cannot take the address away). */
export const RemoveEmailBody = Type.Object({ password: Text('password', LIMITS.passwordMax) });
export type RemoveEmailBody = Static<typeof RemoveEmailBody>;

export const EmailAccepted = Type.Object({
  message: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
});
export type EmailAccepted = Static<typeof EmailAccepted>;

export const TokenBody = Type.Object({ token: LinkToken });
export type TokenBody = Static<typeof TokenBody>;

export const ForgotPasswordBody = Type.Object({
  username: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.emailMax, [X_ERROR]: `username must be 1–${LIMITS.emailMax} characters` })),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.emailMax, [X_ERROR]: `email must be 1–${LIMITS.emailMax} characters` })),
  role: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('admin')], { description: 'Which kind of account (default user)' })),
});
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

export const ResetPasswordBody = Type.Object({ token: LinkToken, password: Password });
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;

/**
 * POST /email/undo: the link's token and the account's new password. Whoever moved the address knew the
 * old one (an address change asks for it), so the undo sets another in the same step.
 */
export const UndoEmailBody = Type.Object({ token: LinkToken, password: Password });
export type UndoEmailBody = Static<typeof UndoEmailBody>;

const kindFlags = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, Type.Boolean()])) as Record<(typeof NOTIFICATION_KINDS)[number], ReturnType<typeof Type.Boolean>>;

export const NotificationSettings = Type.Object({
  /** Whether mail can reach the bidder at all: a confirmed address. */
  email_verified: Type.Boolean(),
  email: Type.Object(kindFlags, { description: 'Per kind of notice: whether it is also sent by email' }),
});
export type NotificationSettings = Static<typeof NotificationSettings>;

export const NotificationSettingsBody = Type.Object({
  email: Type.Partial(Type.Object(kindFlags, { additionalProperties: false }), { additionalProperties: false }),
});
export type NotificationSettingsBody = Static<typeof NotificationSettingsBody>;

export const Unsubscribed = Type.Object({
  message: Type.String(),
  kind: literalUnion(NOTIFICATION_KINDS),
});
export type Unsubscribed = Static<typeof Unsubscribed>;
