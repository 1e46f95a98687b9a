/** The owner's Users page (real data, for the platform owner only) and every admin's own profile. */
import {
  AdminUsers, AdminUsersQuery, NumericIdParams, ProfileUpdated, SetUserStatusBody, UpdateProfileBody, UserStatusChanged, errorResponses,
} from '@auction/shared';
import type { App, AppContext } from '../context.js';
import { setUserStatus, updateAdminProfile } from '../domain/accounts.js';
import { AppError, unwrap } from '../errors.js';
import { presentAdmin, presentUserForOwner } from '../presenters/accounts.js';
import { callerOf } from './input.js';

export function userAdminRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const security = [{ bearer: [] }];

  app.get('/admin/users', {
    onRequest: guard.owner,
    schema: { tags: ['owner'], security, summary: 'Bidders with balance and registrations (platform owner only); ?q= searches name, username, mobile', querystring: AdminUsersQuery, response: { 200: AdminUsers, ...errorResponses(400, 401, 403) } },
  }, async (req) => ({ users: (await reads.listUsersForOwner(req.query.q)).map(presentUserForOwner) }));

  app.patch('/admin/users/:id', {
    onRequest: guard.owner,
    schema: { tags: ['owner'], security, summary: 'Activate or deactivate a bidder (deactivation revokes their tokens and closes their sockets)', params: NumericIdParams, body: SetUserStatusBody, response: { 200: UserStatusChanged, ...errorResponses(400, 401, 403, 404) } },
  }, async (req) => {
    const userId = Number(req.params.id);
    const { status } = req.body;
    unwrap(await commands.run((tx) => setUserStatus(tx, { userId, status }, ctx.now())));
    const user = await reads.userForOwner(userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    return { message: status === 'inactive' ? 'User deactivated' : 'User activated', user: presentUserForOwner(user) };
  });

  app.put('/admin/profile', {
    onRequest: guard.admin,
    schema: { tags: ['accounts'], security, summary: 'Update the admin’s own name and mobile number', body: UpdateProfileBody, response: { 200: ProfileUpdated, ...errorResponses(400, 401, 403) } },
  }, async (req) => {
    const adminId = callerOf(req).id;
    const { admin } = unwrap(await commands.run((tx) => updateAdminProfile(tx, { adminId, name: req.body.name, mobileNumber: req.body.mobile_number })));
    return { message: 'Profile updated successfully!', admin: presentAdmin(admin) };
  });
}
