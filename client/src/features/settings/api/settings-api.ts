/** Settings calls, with the admin token (the bidder's own password change aside). */
import type { AdminChangePasswordBody, ChangePasswordBody, PasswordChanged, ProfileUpdated, UpdateProfileBody } from '@auction/shared';
import { api } from '../../../lib/api-client';

const as = { as: 'admin' } as const;

// GET /admin/settings is read in lib/admin-settings.ts (the auction form and the product photos read it too).
export { systemSettingsQuery } from '../../../lib/admin-settings';

export const updateProfile = (body: UpdateProfileBody) => api.put<ProfileUpdated>('/admin/profile', body, as);

/** The old token stops working once this succeeds; the answer carries the new one. */
export const changeAdminPassword = (body: Omit<AdminChangePasswordBody, 'role'>) =>
  api.post<PasswordChanged>('/admin/change-password', { ...body, role: 'admin' } satisfies AdminChangePasswordBody, as);

/** The bidder's own: POST /change-password; as with the admin's, the old token stops working. */
export const changeUserPassword = (body: Pick<ChangePasswordBody, 'password' | 'new_password'>) =>
  api.post<PasswordChanged>('/change-password', body satisfies ChangePasswordBody, { as: 'user' });
