import type { AdminStats } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** GET /admin/stats, the signed-in admin's numbers, with the admin token. */
export const fetchAdminStats = (signal?: AbortSignal) => api.get<AdminStats>('/admin/stats', { as: 'admin', signal });
