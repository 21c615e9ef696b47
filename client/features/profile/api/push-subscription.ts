import { memberHttp } from '#client/lib/session';
import type { PushKeyAnswer, PushSubscriptionBody } from '#sync/rest-api/notifications';

// This device's Web Push subscription (docs/notifications.md, "On the device"): the browser's
// pushManager holds it, the server keeps a copy to send to.

export type PushSupport = 'supported' | 'unsupported';

export function pushSupport(): PushSupport {
  return typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window && 'serviceWorker' in navigator ? 'supported' : 'unsupported';
}

/** The worker's registration, or null when none is active yet (the app registers it after load). */
async function registration(waitMs: number): Promise<ServiceWorkerRegistration | null> {
  const ready = navigator.serviceWorker.ready;
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs));
  return Promise.race([ready, timeout]);
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** base64url (the key as /api/push/key gives it) to the bytes pushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export class PushSetupError extends Error {}

/**
 * Turns push on for this device: the subscription made with the server's key, then handed to the
 * server. When the server does not take it, the browser's subscription is dropped again, so the
 * switch never shows on for a device nobody sends to.
 */
export async function subscribeThisDevice(): Promise<PushSubscription> {
  const reg = await registration(10_000);
  if (!reg) throw new PushSetupError('The app is still installing. Try again in a moment.');
  const { public_key } = await memberHttp.json<PushKeyAnswer>('GET', '/api/push/key');
  let sub: PushSubscription;
  try {
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) });
  } catch {
    throw new PushSetupError('This browser could not reach its push service. Try again later.');
  }
  try {
    await memberHttp.json('POST', '/api/push/subscriptions', sub.toJSON() as PushSubscriptionBody);
  } catch (e) {
    await sub.unsubscribe().catch(() => false);
    throw e;
  }
  return sub;
}

/** Turns push off for this device: the browser stops first (nothing more arrives), then the server forgets it. */
export async function unsubscribeThisDevice(sub: PushSubscription): Promise<void> {
  const { endpoint } = sub;
  await sub.unsubscribe();
  await memberHttp.json('DELETE', '/api/push/subscriptions', { endpoint });
}
