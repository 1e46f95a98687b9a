/** GET /admin/reports: every number of the Reports page in one call. */
import { queryOptions } from '@tanstack/react-query';
import type { Reports } from '@auction/shared';
import { api } from '../../../lib/api-client';

export const fetchReports = () => api.get<Reports>('/admin/reports', { as: 'admin' });

/** GET /admin/reports, read whenever the page is shown (and on Refresh). */
export const reportsQuery = () => queryOptions({ queryKey: ['admin', 'reports'] as const, queryFn: () => fetchReports() });
