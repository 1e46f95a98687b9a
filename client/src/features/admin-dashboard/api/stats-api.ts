import { queryOptions } from '@tanstack/react-query';
import type { AdminStats } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** GET /admin/stats, the signed-in admin's numbers, with the admin token. */
export const fetchAdminStats = () => api.get<AdminStats>('/admin/stats', { as: 'admin' });

export const adminStatsQuery = () => queryOptions({ queryKey: ['admin', 'stats'] as const, queryFn: () => fetchAdminStats() });
