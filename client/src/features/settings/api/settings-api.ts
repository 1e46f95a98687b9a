/** Settings calls (DESIGN §3), with the admin token. */
import type { AdminPublic } from '@auction/shared';
import { api } from '../../../lib/api-client';

const as = { as: 'admin' } as const;

export interface SystemSettings {
  auto_settle: boolean;
  admin_signup: 'open' | 'closed';
  min_increment: number;
  live_frame_ms: number;
  timezone: string;
}

export const fetchSystemSettings = () => api.get<SystemSettings>('/admin/settings', as);

export const updateProfile = (body: { name: string; mobile_number: string }) =>
  api.put<{ message: string; admin: AdminPublic }>('/admin/profile', body, as);

/** The old token stops working once this succeeds; the answer carries the new one. */
export const changeAdminPassword = (body: { username: string; password: string; new_password: string }) =>
  api.post<{ message: string; token: string }>('/admin/change-password', { ...body, role: 'admin' }, as);
