// The notifications feature's public surface.
export { LiveNotifications } from './components/LiveNotifications';
export { notificationFor } from './messages';
