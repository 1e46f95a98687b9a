/**
 * The signed-in account's own details (`GET /me`), its email address and, for bidders, which notices
 * are also mailed. Each call carries the token of the portal it is made from.
 */
import { queryOptions } from '@tanstack/react-query';
import type { EmailAccepted, Me, NotificationSettings, NotificationSettingsBody, RemoveEmailBody, SetEmailBody } from '@auction/shared';
import type { Portal } from '../../../config/paths';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** Both sessions may be open in one browser: each portal's `/me` is its own query. */
export const meKey = (portal: Portal) => [...queryRoots.me, portal] as const;

export const meQuery = (portal: Portal) => queryOptions({
  queryKey: meKey(portal),
  queryFn: ({ signal }) => api.get<Me>('/me', { as: portal, signal }),
});

/**
 * PUT /me/email → 202, with the current password: a link to confirm it is mailed to the address; until
 * then it is not confirmed. A wrong password is 400 WRONG_PASSWORD.
 */
export const setEmail = (portal: Portal, body: SetEmailBody) =>
  api.put<EmailAccepted>('/me/email', body, { as: portal });

/**
 * DELETE /me/email → 204, with the current password: forgets the confirmed address and any waiting for
 * its link; the confirmed one is mailed a link that puts it back. A wrong password is 400 WRONG_PASSWORD.
 */
export async function removeEmail(portal: Portal, body: RemoveEmailBody): Promise<void> {
  await api.delete<unknown>('/me/email', { as: portal }, body);
}

export const notificationSettingsKey = queryRoots.notificationSettings;

/** GET /me/notification-settings (bidders only). */
export const notificationSettingsQuery = () => queryOptions({
  queryKey: notificationSettingsKey,
  queryFn: ({ signal }) => api.get<NotificationSettings>('/me/notification-settings', { as: 'user', signal }),
});

/** PUT /me/notification-settings with only the kinds changed; the answer is the whole of them. */
export const saveNotificationSettings = (body: NotificationSettingsBody) =>
  api.put<NotificationSettings>('/me/notification-settings', body, { as: 'user' });
