// The notifications feature's public surface.
export { LiveNotifications } from './components/LiveNotifications';
export { NotificationsBell } from './components/NotificationsBell';
export { notificationFor } from './messages';
export { notificationFeed } from './store/notifications-store';
