/**
 * What several admin pages read of the server's configuration (GET /admin/settings, the values in
 * force): the Settings page shows it, the auction form takes its soft-close defaults for hints, the
 * product photos their size limit. Beside it, the client's own default for a new auction's end.
 */
import { queryOptions } from '@tanstack/react-query';
import type { AdminSettings } from '@auction/shared';
import { api } from './api-client';

/** How long a new auction runs unless the admin picks another end (7 days). */
export const DEFAULT_DURATION_DAYS = 7;

export const fetchSystemSettings = () => api.get<AdminSettings>('/admin/settings', { as: 'admin' });

/** GET /admin/settings, with the admin token. */
export const systemSettingsQuery = () => queryOptions({
  queryKey: ['admin', 'settings'] as const,
  queryFn: () => fetchSystemSettings(),
});
