/** The owner's Users page (real data, DESIGN §7) and every admin's own profile. */
import {
  AdminUsers, AdminUsersQuery, NumericIdParams, ProfileUpdated, SetUserStatusBody, UpdateProfileBody, UserStatusChanged,
  errorResponses, toRupees,
} from '@auction/shared';
import type { App, AppContext } from '../context.js';
import { setUserStatus, updateAdminProfile } from '../domain/accounts.js';
import { AppError } from '../errors.js';
import { presentAdmin } from '../presenters/accounts.js';
import { iso } from '../presenters/catalogue.js';
import { listUsersForOwner, userForOwner, type UserAdminRow } from '../queries/users.js';
import { callerOf } from './input.js';

const present = (u: UserAdminRow) => ({
  id: u.id, name: u.name, username: u.username, mobile_number: u.mobileNumber, wallet_balance: toRupees(u.walletBalance),
  auctions_registered: u.auctionsRegistered, status: u.status, created_at: iso(u.createdAt),
});

export function userAdminRoutes(app: App, ctx: AppContext) {
  const { db, guard, live } = ctx;
  const security = [{ bearer: [] }];

  app.get('/admin/users', {
    onRequest: guard.owner,
    schema: { tags: ['owner'], security, summary: 'Bidders with balance and registrations (platform owner only); ?q= searches name, username, mobile', querystring: AdminUsersQuery, response: { 200: AdminUsers, ...errorResponses(400, 401, 403) } },
  }, async (req) => ({ users: listUsersForOwner(db, req.query.q).map(present) }));

  app.patch('/admin/users/:id', {
    onRequest: guard.owner,
    schema: { tags: ['owner'], security, summary: 'Activate or deactivate a bidder (deactivation revokes their tokens and closes their sockets)', params: NumericIdParams, body: SetUserStatusBody, response: { 200: UserStatusChanged, ...errorResponses(400, 401, 403, 404) } },
  }, async (req) => {
    const id = Number(req.params.id);
    const changed = setUserStatus({ db, userId: id, status: req.body.status });
    if (!changed) throw new AppError('NOT_FOUND', 'User not found');
    if (req.body.status === 'inactive') live.disconnectUser(id);
    return { message: req.body.status === 'inactive' ? 'User deactivated' : 'User activated', user: present(userForOwner(db, id)!) };
  });

  app.put('/admin/profile', {
    onRequest: guard.admin,
    schema: { tags: ['accounts'], security, summary: 'Update the admin’s own name and mobile number', body: UpdateProfileBody, response: { 200: ProfileUpdated, ...errorResponses(400, 401, 403) } },
  }, async (req) => {
    const admin = updateAdminProfile({ db, adminId: callerOf(req).id, name: req.body.name, mobileNumber: req.body.mobile_number });
    if (!admin) throw new AppError('UNAUTHENTICATED', 'Please sign in');
    return { message: 'Profile updated successfully!', admin: presentAdmin(admin) };
  });
}
