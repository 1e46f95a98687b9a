/** Saved lots and notifications (docs/notifications.md). */
import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { X_ERROR } from './common.js';
import { AuctionStatus, Product } from './catalogue.js';
import { literalUnion, NOTIFICATION_KINDS } from './enums.js';

export const NotificationKind = literalUnion(NOTIFICATION_KINDS);
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How many notices a bidder keeps (older ones are dropped) and reads at most at once. */
export const NOTIFICATIONS_KEPT = 500;
export const NOTIFICATIONS_PAGE_MAX = 100;
export const NOTIFICATIONS_PAGE_DEFAULT = 20;

export const Notification = Type.Object({
  id: Type.Integer(),
  kind: NotificationKind,
  title: Type.String(),
  body: Type.String(),
  link: Type.String({ description: 'The lot page: /auctions/{auctionId}/products/{productId}' }),
  created_at: Type.String(),
  read: Type.Boolean(),
});
export type Notification = Static<typeof Notification>;

export const Notifications = Type.Object({
  notifications: Type.Array(Notification, { description: 'Newest first' }),
  unread: Type.Integer({ description: 'How many of the caller’s notices are unread' }),
});
export type Notifications = Static<typeof Notifications>;

/** Query strings are text: the numbers are checked as digits. */
export const NotificationsQuery = Type.Object({
  before: Type.Optional(Type.String({ maxLength: 15, pattern: '^[0-9]{1,15}$', [X_ERROR]: 'before must be a notification id', description: 'Only notices older than this id (the last one of the page before)' })),
  limit: Type.Optional(Type.String({ maxLength: 3, pattern: '^(?:[1-9][0-9]?|100)$', [X_ERROR]: `limit must be a whole number from 1 to ${NOTIFICATIONS_PAGE_MAX}`, description: `At most this many (default ${NOTIFICATIONS_PAGE_DEFAULT})` })),
});
export type NotificationsQuery = Static<typeof NotificationsQuery>;

export const MarkNotificationsReadBody = Type.Object({
  ids: Type.Optional(Type.Array(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, [X_ERROR]: 'ids must be notification ids' }),
    { maxItems: NOTIFICATIONS_KEPT, [X_ERROR]: `ids must list at most ${NOTIFICATIONS_KEPT} notification ids`, description: 'Left out: every notice. Ids of other accounts change nothing.' },
  )),
});
export type MarkNotificationsReadBody = Static<typeof MarkNotificationsReadBody>;

export const UnreadCount = Type.Object({ unread: Type.Integer() });
export type UnreadCount = Static<typeof UnreadCount>;

/**
 * A lot of the bidder's saved list (`GET /saved`): the product, with what the Saved page shows of its
 * auction (its name and the time left), so the page reads nothing else.
 */
export const SavedLot = Type.Object({
  ...Product.properties,
  auction: Type.Union([
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      valid_until: Type.String({ description: 'ISO-8601 in TIMEZONE’s offset, as soft close has moved it' }),
      status: AuctionStatus,
    }),
    Type.Null(),
  ], { description: 'Its auction; null while the lot is in none' }),
});
export type SavedLot = Static<typeof SavedLot>;

export const SavedLotParams = Type.Object({
  productId: Type.String({ minLength: 1, maxLength: LIMITS.idMax, [X_ERROR]: `productId must be 1–${LIMITS.idMax} characters` }),
});
