import {
  AdminChangePasswordBody, AdminLoginBody, AdminRegisterBody, AdminRegistered, AdminSession, ChangePasswordBody,
  LoginBody, PasswordChanged, RegisterBody, UserRegistered, UserSession, errorResponses,
} from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import {
  changePassword, loginAdmin, loginUser, namesCaller, registerAdmin, registerUser, type Caller,
} from '../../domain/accounts.js';
import { AppError, unwrap } from '../../errors.js';
import { presentAdmin, presentUser } from '../../presenters/accounts.js';

export function accountRoutes(app: App, ctx: AppContext) {
  const { reads, commands, tokens, guard, authRateLimit: config } = ctx;
  const caller = (req: { caller: Caller | null }) => req.caller as Caller;
  // Credential changes: the per-IP limit of login (route config) and a per-account one after the guard.
  const changeGuard = (role: 'user' | 'admin') => (ctx.credentialRateLimit ? [guard[role], ctx.credentialRateLimit] : [guard[role]]);

  app.post('/register', {
    config,
    schema: { tags: ['accounts'], summary: 'Register a bidder', body: RegisterBody, response: { 201: UserRegistered, ...errorResponses(400, 409, 429) } },
  }, async (req, reply) => {
    const { user } = unwrap(await registerUser(commands, { publicUrl: ctx.config.publicUrl }, req.body, ctx.now()));
    return reply.code(201).send({ message: 'Registration successful! Please login.', user: presentUser(user) });
  });

  app.post('/login', {
    config,
    schema: { tags: ['accounts'], summary: 'Sign in as a bidder', body: LoginBody, response: { 200: UserSession, ...errorResponses(400, 403, 429) } },
  }, async (req) => {
    const { account } = unwrap(await loginUser(reads, req.body.username, req.body.password));
    const token = await tokens.sign({ id: account.id, role: 'user', ver: account.tokenVersion });
    return { token, user: presentUser(account) };
  });

  app.post('/change-password', {
    config,
    onRequest: changeGuard('user'),
    schema: {
      tags: ['accounts'], summary: 'Change the bidder’s password; older tokens stop working', security: [{ bearer: [] }],
      body: ChangePasswordBody, response: { 200: PasswordChanged, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (req) => {
    const me = caller(req);
    if (!namesCaller(me, req.body.username, req.body.user_id)) throw new AppError('FORBIDDEN', 'You can only change your own password');
    const { ver } = unwrap(await changePassword(commands, me, req.body.password, req.body.new_password, ctx.now()));
    return { message: 'Password changed successfully!', token: await tokens.sign({ id: me.id, role: 'user', ver }) };
  });

  app.post('/admin/register', {
    config,
    schema: { tags: ['accounts'], summary: 'Register an admin (the first is the owner)', body: AdminRegisterBody, response: { 201: AdminRegistered, ...errorResponses(400, 403, 409, 429) } },
  }, async (req, reply) => {
    const { admin } = unwrap(await registerAdmin(commands, { publicUrl: ctx.config.publicUrl }, req.body, ctx.now(), ctx.config.adminSignup));
    return reply.code(201).send({ message: 'Admin registration successful! Please login.', admin: presentAdmin(admin) });
  });

  app.post('/admin/login', {
    config,
    schema: { tags: ['accounts'], summary: 'Sign in as an admin', body: AdminLoginBody, response: { 200: AdminSession, ...errorResponses(400, 403, 429) } },
  }, async (req) => {
    const { account } = unwrap(await loginAdmin(reads, req.body.username, req.body.password));
    const token = await tokens.sign({ id: account.id, role: 'admin', ver: account.tokenVersion });
    return { token, admin: presentAdmin(account) };
  });

  app.post('/admin/change-password', {
    config,
    onRequest: changeGuard('admin'),
    schema: {
      tags: ['accounts'], summary: 'Change the admin’s password; older tokens stop working', security: [{ bearer: [] }],
      body: AdminChangePasswordBody, response: { 200: PasswordChanged, ...errorResponses(400, 401, 403, 429) },
    },
  }, async (req) => {
    const me = caller(req);
    if (!namesCaller(me, req.body.username, req.body.user_id)) throw new AppError('FORBIDDEN', 'You can only change your own password');
    const { ver } = unwrap(await changePassword(commands, me, req.body.password, req.body.new_password, ctx.now()));
    return { message: 'Password changed successfully!', token: await tokens.sign({ id: me.id, role: 'admin', ver }) };
  });
}
