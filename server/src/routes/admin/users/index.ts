/** The owner's Users page (real data, for the platform owner only) and every admin's own profile. */
import {
  ADMIN_PAGE_DEFAULT, AdminUsersPage, AdminUsersPageQuery, NumericIdParams, ProfileUpdated, SetUserStatusBody, UpdateProfileBody, UserStatusChanged, WHOLE_LIST_MAX, errorResponses,
} from '@auction/shared';
import type { App, AppContext } from '../../../context.js';
import { setUserStatus, updateAdminProfile } from '../../../domain/accounts.js';
import { AppError, unwrap } from '../../../errors.js';
import { presentAdmin, presentUserForOwner } from '../../../presenters/accounts.js';
import { decodeCursor, encodeCursor } from '../../cursor.js';
import { callerOf, pageLimit } from '../../input.js';

/** A users cursor names this list; its id is the user's id as text. */
const USERS_ORDER = 'admin-users';

function usersAfter(cursor: string | undefined): { key: number; id: number } | null {
  if (cursor === undefined) return null;
  const { key, id } = decodeCursor(cursor, USERS_ORDER);
  if (!/^[0-9]{1,15}$/.test(id)) throw new AppError('VALIDATION', 'cursor must be the next_cursor of a page of this search', 'cursor');
  return { key, id: Number(id) };
}

export function userAdminRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const security = [{ bearer: [] }];

  app.get('/admin/users', {
    onRequest: guard.owner,
    schema: {
      tags: ['owner'], security,
      summary: 'Bidders with balance and registrations (platform owner only); ?q= searches name, username, mobile',
      description: `Newest first. Without \`limit\` and \`cursor\`, every match at once (the newest ${WHOLE_LIST_MAX} at most); with either, a page (\`limit\`, default 24) and \`next_cursor\` (pass it back as \`cursor\`, with the same \`q\`).`,
      querystring: AdminUsersPageQuery, response: { 200: AdminUsersPage, ...errorResponses(400, 401, 403) },
    },
  }, async (req) => {
    const { q, limit: limitText, cursor } = req.query;
    if (limitText === undefined && cursor === undefined) return { users: (await reads.listUsersForOwner(q)).map(presentUserForOwner) };
    const limit = pageLimit(limitText, ADMIN_PAGE_DEFAULT);
    const rows = await reads.listUsersPageForOwner(q, usersAfter(cursor), limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      users: page.map(presentUserForOwner),
      next_cursor: rows.length > limit && last ? encodeCursor(USERS_ORDER, { key: Number(last.createdAt), id: String(last.id) }) : null,
    };
  });

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
