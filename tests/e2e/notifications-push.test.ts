import { describe, expect } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { waitForServiceWorker } from './feed-actions';
import { apiLogin, seedVideo } from './notifications-steps';

// The worker's push handling (client/sw/push-events.ts) with a push delivered by the DevTools
// Protocol to the real registration: the push service's part (encryption, delivery) is the server's
// tests' subject (web-push-testing).

const payload = (id: string, title: string, unread: number, videoId = 'v1') =>
  JSON.stringify({
    notification: {
      id,
      kind: 'likes',
      video_id: videoId,
      count: 2,
      actor_name: 'Ann',
      detail: null,
      amount_paise: null,
      rank: null,
      created_at: '',
      updated_at: '',
      read: false,
    },
    title,
    body: 'Monsoon on the roof',
    url: `/home#video-${videoId}`,
    unread,
  });

// Notifications, Web Push and Background Sync are the full browser's, not its headless shell's.
const test = pwaTest({}, { browser: 'full' });

/** A page whose service worker gets pushes from the DevTools Protocol, and the notifications it shows. */
async function pushablePage(server: ServerProcess, context: BrowserContext) {
  await context.grantPermissions(['notifications'], { origin: server.url });
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await waitForServiceWorker(page);
  const cdp = await context.newCDPSession(page);
  const found = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${server.url}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  const registrationId = await found;
  const deliver = (data: string) => cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data });
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown })),
    );
  return { page, deliver, shown };
}

describe.skipIf(!hasChromium)('a push reaches the service worker', () => {
  test('shows nothing for a malformed payload', async ({ server, context }) => {
    const { deliver, shown } = await pushablePage(server, context);
    for (const bad of ['not json', '{}', payload('n0', '', 1), JSON.stringify({ ...JSON.parse(payload('n0', 'x', 1)), url: 'https://elsewhere.example/' })])
      await deliver(bad);
    // A good one after them: once it shows, the bad ones before it have been handled (pushes run in order).
    await deliver(payload('n1', 'Ann liked your video', 1));
    await expect
      .poll(shown, { timeout: 15_000 })
      .toEqual([{ title: 'Ann liked your video', body: 'Monsoon on the roof', tag: 'n1', data: { url: '/home#video-v1', id: 'n1' } }]);
  });

  test('keeps one notification per row: a batched like replaces its earlier push', async ({ server, context }) => {
    const { deliver, shown } = await pushablePage(server, context);
    await deliver(payload('n1', 'Ann liked your video', 1));
    await expect.poll(shown, { timeout: 15_000 }).toEqual([expect.objectContaining({ title: 'Ann liked your video', tag: 'n1' })]);
    await deliver(payload('n1', '2 people liked your video', 1));
    await expect.poll(shown, { timeout: 15_000 }).toEqual([expect.objectContaining({ title: '2 people liked your video', tag: 'n1' })]);
  });

  test("brings the open window to the notification's card when it is tapped, and closes it", async ({ server, context }) => {
    const { page, deliver, shown } = await pushablePage(server, context);
    const email = uniqueEmail('tapper');
    await signUpVerified(server, 'Tara Tapper', email);
    const videoId = await seedVideo(server, (await apiLogin(server, email)).userId, 'Tea on the terrace');
    await logInThroughUi(page, server, email);
    await page.getByRole('article', { name: 'Tea on the terrace' }).waitFor();
    await page.goto(`${server.url}/profile`);
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();

    await deliver(payload('n-tap', 'Ann liked your video', 1, videoId));
    await expect.poll(async () => (await shown()).map((n) => n.tag), { timeout: 15_000 }).toContain('n-tap');
    // Headless Chromium has no notification to click: the worker gets the event a tap dispatches,
    // with the notification it showed.
    const worker = context.serviceWorkers().find((w) => w.url().startsWith(server.url));
    expect(worker).toBeDefined();
    await worker!.evaluate(async (tag) => {
      const scope = globalThis as unknown as {
        registration: { getNotifications(o: { tag: string }): Promise<Notification[]> };
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
        dispatchEvent(e: Event): boolean;
      };
      const [notification] = await scope.registration.getNotifications({ tag });
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
    }, 'n-tap');

    await page.waitForURL(`**/home#video-${videoId}`);
    await page.locator(`[id="video-${videoId}"]`).waitFor();
    await expect.poll(async () => (await shown()).map((n) => n.tag)).not.toContain('n-tap');
  });
});
