import type { NotificationKind, PushPayload } from '#sync/protocol/notifications';

// Web Push in the service worker (docs/notifications.md, "On the device"). The payload is checked
// by hand, not with zod: the worker stays small. Typed loosely, as in sw.ts (the DOM and WebWorker
// libs cannot share one program).

interface ExtendableEvent {
  waitUntil(p: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { text(): string } | null;
}
interface ShownNotification {
  data: unknown;
  close(): void;
}
interface NotificationClickEvent extends ExtendableEvent {
  notification: ShownNotification;
}
interface WindowClient {
  url: string;
  focused: boolean;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface PushScope {
  location: Location;
  navigator: { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
  registration: { showNotification(title: string, options: object): Promise<void> };
  clients: { matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>; openWindow(url: string): Promise<unknown> };
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationClickEvent) => void): void;
}
declare const self: PushScope;

/** The kinds the payload may name; a type-only import keeps zod (of the protocol module) out of the worker. */
const KINDS: Record<NotificationKind, true> = {
  likes: true,
  comment: true,
  processed: true,
  processing_failed: true,
  prize: true,
  follow: true,
  reply: true,
  mention: true,
  comment_likes: true,
  report_resolved: true,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isString = (v: unknown): v is string => typeof v === 'string';

const isAppPath = (v: unknown): v is string => isString(v) && v.startsWith('/') && !v.startsWith('//');

function hasPayloadShape(data: Record<string, unknown>): boolean {
  const n = data.notification;
  if (!isObject(n) || !isString(n.id) || !n.id || !isString(n.kind) || !Object.hasOwn(KINDS, n.kind)) return false;
  if (!isString(data.title) || !data.title || !isString(data.body) || !isAppPath(data.url)) return false;
  return typeof data.unread === 'number' && Number.isInteger(data.unread) && data.unread >= 0;
}

/** The payload when it has the shape the server sends (PushPayloadSchema), else null: nothing is shown. */
export function parsePushPayload(text: string): PushPayload | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  return isObject(data) && hasPayloadShape(data) ? (data as PushPayload) : null;
}

async function showPush(payload: PushPayload): Promise<void> {
  await self.registration.showNotification(payload.title, {
    body: payload.body,
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    // One notification per row: a batched like ("5 people liked your video") replaces its earlier push.
    tag: payload.notification.id,
    renotify: true,
    data: { url: payload.url, id: payload.notification.id },
  });
  const nav = self.navigator;
  await (payload.unread > 0 ? nav.setAppBadge?.(payload.unread) : nav.clearAppBadge?.())?.catch(() => undefined);
}

/** The app's window to reuse: a focused one first, else any. */
async function openAt(url: string): Promise<void> {
  const target = new URL(url, self.location.origin);
  if (target.origin !== self.location.origin) return;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const win = windows.find((w) => w.focused) ?? windows[0];
  if (!win) {
    await self.clients.openWindow(target.href);
    return;
  }
  // navigate() loads the page from the precached shell; it refuses a window this worker does not control.
  const moved = await win.navigate(target.href).catch(() => null);
  if (moved) await moved.focus();
  else await self.clients.openWindow(target.href);
}

export function listenForPush(): void {
  self.addEventListener('push', (event) => {
    let payload: PushPayload | null = null;
    try {
      payload = event.data ? parsePushPayload(event.data.text()) : null;
    } catch {
      payload = null;
    }
    if (payload) event.waitUntil(showPush(payload).catch(() => undefined));
  });
  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data;
    const url = isObject(data) && isAppPath(data.url) ? data.url : '/home';
    event.waitUntil(openAt(url).catch(() => undefined));
  });
}
