/**
 * The rules a new auction gets when its admin names none (the server's SOFT_CLOSE_S and
 * MAX_EXTENSION_S, read in lib/admin-settings.ts), for the create form's hints.
 */
import type { AdminSettings } from '@auction/shared';
import { systemSettingsQuery } from '../../../lib/admin-settings';
import { useServerQuery } from '../../../lib/query';

export type RuleDefaults = Pick<AdminSettings, 'soft_close_s' | 'max_extension_s'>;

/** The server's defaults once known (undefined before, or when they cannot be read: the form then says "the server's default"). */
export function useRuleDefaults(enabled: boolean): RuleDefaults | undefined {
  // A cached answer is enough: these change only when the server restarts with other settings.
  const { data } = useServerQuery({ ...systemSettingsQuery(), staleTime: Infinity }, { enabled });
  return enabled && data ? { soft_close_s: data.soft_close_s, max_extension_s: data.max_extension_s } : undefined;
}
