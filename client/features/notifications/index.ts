export { NotificationBell } from './components/NotificationBell';
export { forgetPushSubscription } from './api/keep-subscription';
