/**
 * Accounts by email (docs/email.md): the caller's account and address, confirmation links, password
 * reset by a mailed link, notice email choices and the unsubscribe link that needs no sign-in.
 */
import {
  EmailAccepted, ForgotPasswordBody, LinkToken, Me, MessageBody, NotificationSettings, NotificationSettingsBody, RemoveEmailBody, ResetPasswordBody,
  SetEmailBody, TokenBody, UndoEmailBody, Unsubscribed, errorResponses, type Me as MeBody,
} from '@auction/shared';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, AppContext } from '../../context.js';
import type { AdminRow, UserRow } from '../../db/index.js';
import { normaliseEmail } from '../../domain/confirmation.js';
import { changeEmail, confirmEmail, forgotPassword, notificationSettings, removeEmail, resetPassword, undoEmailChange, unsubscribe, updateNotificationSettings } from '../../domain/email.js';
import { AppError, unwrap } from '../../errors.js';
import type { UnsubscribeTokens } from '../../mail/links.js';
import { callerOf } from '../input.js';

export interface MailRouteContext {
  /** The outbox's sender looks now (when this process sends): a mail was just written. */
  kick: () => void;
  unsubscribe: UnsubscribeTokens;
}

const FORGOT_MESSAGE = 'If an account matches, we have sent a link to its confirmed email address to reset the password. The link works for 30 minutes.';

function presentMe(role: 'user' | 'admin', a: UserRow | AdminRow): MeBody {
  return {
    role, id: a.id, username: a.username, name: a.name, mobile_number: a.mobileNumber,
    ...(role === 'admin' ? { is_owner: (a as AdminRow).isOwner } : {}),
    email: a.pendingEmail ?? a.email,
    email_verified: a.pendingEmail === null && a.email !== null,
    confirmed_email: a.email,
  };
}

export function emailRoutes(app: App, ctx: AppContext, mail: MailRouteContext) {
  const { reads, commands, guard, authRateLimit } = ctx;
  const links = { publicUrl: ctx.config.publicUrl };
  const security = [{ bearer: [] }];
  // The current password is asked for: guesses count with change-password's, per account (app.ts).
  const withPassword = ctx.credentialRateLimit ? [guard.any, ctx.credentialRateLimit] : [guard.any];

  app.get('/me', {
    onRequest: guard.any,
    schema: { tags: ['accounts'], security, summary: 'The caller’s own account, with its email address and whether it is confirmed', response: { 200: Me, ...errorResponses(401) } },
  }, async (req) => {
    const me = callerOf(req);
    const account = await reads.account(me.role, me.id);
    if (!account) throw new AppError('UNAUTHENTICATED', 'Please sign in');
    return presentMe(me.role, account);
  });

  app.put('/me/email', {
    onRequest: withPassword,
    config: ctx.userLimit('emailChange'),
    schema: {
      tags: ['accounts'], security, summary: 'Give or change the caller’s email address, with the current password: a confirmation link is mailed to it',
      body: SetEmailBody, response: { 202: EmailAccepted, ...errorResponses(400, 401, 429) },
    },
  }, async (req, reply) => {
    const result = unwrap(await changeEmail(commands, links, callerOf(req), req.body, ctx.now()));
    if (!result.verified) mail.kick();
    return reply.code(202).send({
      message: result.verified
        ? `${result.email} is already your confirmed address.`
        : `We sent a link to ${result.email}. Open it to confirm your address; it works for 24 hours.`,
      email: result.email, email_verified: result.verified,
    });
  });

  // A JSON body on DELETE: the app's JSON parser reads it as on any other method.
  app.delete('/me/email', {
    onRequest: withPassword,
    config: ctx.userLimit('settings'),
    schema: {
      tags: ['accounts'], security, summary: 'Remove the caller’s email address (confirmed or waiting), with the current password: the confirmed one is mailed a link that puts it back',
      body: RemoveEmailBody, response: { 204: Type.Null(), ...errorResponses(400, 401, 429) },
    },
  }, async (req, reply) => {
    unwrap(await removeEmail(commands, links, callerOf(req), req.body, ctx.now()));
    // The address removed, if it was confirmed, was just written a mail.
    mail.kick();
    return reply.code(204).send(null);
  });

  app.post('/email/verify', {
    config: authRateLimit,
    schema: { tags: ['accounts'], summary: 'Confirm an email address with the token of its link', body: TokenBody, response: { 204: Type.Null(), ...errorResponses(400, 409, 429) } },
  }, async (req, reply) => {
    unwrap(await confirmEmail(commands, links, req.body.token, ctx.now()));
    // The address it replaced, if any, was just written a mail.
    mail.kick();
    return reply.code(204).send(null);
  });

  app.post('/email/undo', {
    config: authRateLimit,
    schema: {
      tags: ['accounts'], summary: 'Undo an address change or removal with the token of the link mailed to the address left, and a new password: the address is confirmed again, the password set, and every session of the account ends',
      body: UndoEmailBody, response: { 204: Type.Null(), ...errorResponses(400, 409, 429) },
    },
  }, async (req, reply) => {
    unwrap(await undoEmailChange(commands, req.body, ctx.now()));
    return reply.code(204).send(null);
  });

  // Per identifier as well as per IP: a flood of resets for one account is refused from any address,
  // whether or not the account exists (the answer must not tell).
  const perIdentifier = ctx.config.rateLimit
    ? app.createRateLimit({
      max: 5, timeWindow: 15 * 60_000,
      keyGenerator: (req) => {
        const body = req.body as ForgotPasswordBody;
        return `forgot:${body.role ?? 'user'}:${body.email !== undefined ? normaliseEmail(body.email) : (body.username ?? '').trim().toLowerCase()}`;
      },
    })
    : null;
  app.post('/password/forgot', {
    config: authRateLimit,
    schema: {
      tags: ['accounts'], summary: 'Ask for a password reset link: always 202, whether or not an account matches',
      body: ForgotPasswordBody, response: { 202: MessageBody, ...errorResponses(400, 429) },
    },
    preHandler: async (req, reply) => {
      const { username, email } = req.body;
      if ((username === undefined) === (email === undefined)) throw new AppError('VALIDATION', 'Give your username or your email address', username === undefined ? 'username' : 'email');
      if (!perIdentifier) return;
      const limit = await perIdentifier(req);
      if (limit.isAllowed || !limit.isExceeded) return;
      reply.header('retry-after', String(limit.ttlInSeconds));
      throw new AppError('RATE_LIMITED', `Too many reset requests for this account; try again in ${Math.ceil(limit.ttlInSeconds / 60)} minutes`);
    },
  }, async (req, reply) => {
    const { username, email, role = 'user' } = req.body;
    // Answered first, the same for everyone: the look-up and the mail follow, off the answer's path,
    // so its timing cannot tell whether an account matched (nor can a failure of what follows).
    const now = ctx.now();
    setImmediate(() => {
      forgotPassword(commands, links, { ...(email !== undefined ? { email } : { username: username! }), role }, now)
        .then(() => mail.kick(), (err: unknown) => req.log.error({ err }, 'password reset request'));
    });
    return reply.code(202).send({ message: FORGOT_MESSAGE });
  });

  app.post('/password/reset', {
    config: authRateLimit,
    schema: {
      tags: ['accounts'], summary: 'Set a new password with the token of a reset link; every session of the account ends',
      body: ResetPasswordBody, response: { 204: Type.Null(), ...errorResponses(400, 429) },
    },
  }, async (req, reply) => {
    unwrap(await resetPassword(commands, req.body.token, req.body.password, ctx.now()));
    return reply.code(204).send(null);
  });

  app.get('/me/notification-settings', {
    onRequest: guard.user,
    schema: { tags: ['notifications'], security, summary: 'Which notices the bidder also gets by email', response: { 200: NotificationSettings, ...errorResponses(401, 403) } },
  }, async (req) => {
    const settings = await notificationSettings(reads, callerOf(req).id);
    if (!settings) throw new AppError('UNAUTHENTICATED', 'Please sign in');
    return settings;
  });

  app.put('/me/notification-settings', {
    onRequest: guard.user,
    config: ctx.userLimit('settings'),
    schema: {
      tags: ['notifications'], security, summary: 'Turn notice emails on or off per kind (kinds not named stay as they are)',
      body: NotificationSettingsBody, response: { 200: NotificationSettings, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (req) => {
    const { settings } = unwrap(await updateNotificationSettings(commands, callerOf(req).id, req.body.email));
    return settings;
  });

  // The unsubscribe link of a notice email: the page (/unsubscribe?token=…) posts the token as JSON;
  // a mail program's one-click unsubscribe (RFC 8058) posts `List-Unsubscribe=One-Click` as a form to
  // the URL in List-Unsubscribe, the token in its query. Neither needs a sign-in.
  void app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // RFC 8058 names the body `List-Unsubscribe=One-Click`, form-encoded or as multipart/form-data: its
    // content says nothing the URL does not, so it is read (up to 4 KiB) and left aside.
    const ignore = (_req: unknown, _body: unknown, done: (err: Error | null, body?: unknown) => void) => done(null, {});
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 4096 }, ignore);
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: 4096 }, ignore);
    scope.post('/unsubscribe', {
      config: authRateLimit,
      schema: {
        tags: ['notifications'], summary: 'Stop one kind of notice email, with the token of its unsubscribe link (no sign-in)',
        querystring: Type.Object({ token: Type.Optional(LinkToken) }),
        body: Type.Object({ token: Type.Optional(LinkToken) }),
        response: { 200: Unsubscribed, ...errorResponses(400, 429) },
      },
    }, async (req) => {
      const token = req.body.token ?? req.query.token;
      if (token === undefined) throw new AppError('VALIDATION', 'token must be the token from the link', 'token');
      const { kind, message } = unwrap(await unsubscribe(commands, mail.unsubscribe, token));
      return { message, kind };
    });
  });
}
