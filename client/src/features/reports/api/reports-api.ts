/** GET /admin/reports: every number of the Reports page in one call. */
import type { Reports } from '@auction/shared';
import { api } from '../../../lib/api-client';

export const fetchReports = () => api.get<Reports>('/admin/reports', { as: 'admin' });
