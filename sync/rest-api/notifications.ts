import * as z from 'zod';
import { NOTIFICATION_PREFS } from '../protocol/notifications';

// The Web Push and notification-choice calls (docs/notifications.md): shared by the server
// (validation, OpenAPI) and the client. Everything is about the caller: no call names a member.

/** GET /api/push/key: the VAPID public key (base64url) the browser subscribes with. */
export const PushKeyAnswer = z.object({ public_key: z.string() });
export type PushKeyAnswer = z.infer<typeof PushKeyAnswer>;

/** A base64url value of a subscription's keys (RFC 8291: p256dh 65 bytes, auth 16). */
const Base64Url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'Must be base64url.');

/**
 * POST /api/push/subscriptions: PushSubscription.toJSON() of this device. The endpoint must be
 * https (a push service); the server also refuses loopback and private addresses outside tests.
 */
export const PushSubscriptionBody = z.object({
  endpoint: z.string().min(1).max(2048),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: Base64Url(200), auth: Base64Url(100) }),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;
export const PushSubscriptionAnswer = z.object({ id: z.string() });

/** DELETE /api/push/subscriptions: this device stops (only the caller's own row goes). */
export const PushUnsubscribeBody = z.strictObject({ endpoint: z.string().min(1).max(2048) });

/** GET / PUT /api/notifications/preferences: which kinds are pushed. PUT takes any subset. */
export const NotificationPrefs = z.strictObject(
  Object.fromEntries(NOTIFICATION_PREFS.map((p) => [p, z.boolean()])) as Record<(typeof NOTIFICATION_PREFS)[number], z.ZodBoolean>,
);
export type NotificationPrefs = z.infer<typeof NotificationPrefs>;
export const NotificationPrefsPatch = NotificationPrefs.partial();
