/** Settings calls, with the admin token. */
import type { AdminChangePasswordBody, AdminSettings, PasswordChanged, ProfileUpdated, UpdateProfileBody } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { createResource } from '../../../lib/resource';

const as = { as: 'admin' } as const;

export const fetchSystemSettings = () => api.get<AdminSettings>('/admin/settings', as);

/** GET /admin/settings (the values in force): the System Settings panel and the auction form's default rules. */
export const systemSettings = createResource<void, AdminSettings>('system-settings', () => fetchSystemSettings());

export const updateProfile = (body: UpdateProfileBody) => api.put<ProfileUpdated>('/admin/profile', body, as);

/** The old token stops working once this succeeds; the answer carries the new one. */
export const changeAdminPassword = (body: Omit<AdminChangePasswordBody, 'role'>) =>
  api.post<PasswordChanged>('/admin/change-password', { ...body, role: 'admin' } satisfies AdminChangePasswordBody, as);
