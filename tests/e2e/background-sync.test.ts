import { describe, expect } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest } from './fixtures';
import { deleteVideo, likeAndCommentOffline, seedVideo, serverState, SyncTrigger } from './installed-app-steps';

// Notifications, Web Push and Background Sync are the full browser's, not its headless shell's.
const test = pwaTest({}, { browser: 'full' });

// docs/pwa.md, "Sync while closed": the outbox goes out from the service worker with no page open.
describe.skipIf(!hasChromium)('changes made offline, sent by the service worker', () => {
  const creatorEmail = uniqueEmail('creator');

  test.beforeAll(async ({ server }) => {
    await signUpVerified(server, 'Cora Creator', creatorEmail);
  });

  /** A new member with the creator's video in their feed, the worker in control, then the network gone. */
  async function offlineBeside({ server, context }: { server: ServerProcess; context: BrowserContext }, name: string, title: string) {
    const email = uniqueEmail('member');
    await signUpVerified(server, name, email);
    const videoId = await seedVideo(server, creatorEmail, title);
    const page = await context.newPage();
    await logInThroughUi(page, server, email);
    await waitForServiceWorker(page);
    await page.getByRole('article', { name: title }).waitFor();
    const trigger = await SyncTrigger.open(context, server.url);
    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline" }).waitFor();
    return { email, videoId, page, trigger };
  }

  test('sends a like and a comment made offline after the app was closed, once, and the app shows them sent', async ({ server, context }) => {
    const title = 'Liked on the train';
    const { email, videoId, page, trigger } = await offlineBeside({ server, context }, 'Cleo Closer', title);
    await likeAndCommentOffline(page, title, 'Sent while the app was closed');
    // The page asked the browser for the worker's sync when it queued them.
    const tags = await page.evaluate(async () => {
      const reg = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync: { getTags(): Promise<string[]> } };
      return reg.sync.getTags();
    });
    expect(tags).toContain('vidi-outbox');
    // No page of the app stays open: only the worker can send them now.
    await page.close();
    expect(await serverState(server, email, videoId)).toMatchObject({ likes: 0, comments: [] });

    await context.setOffline(false);
    await trigger.fire();
    await expect
      .poll(() => serverState(server, email, videoId), { timeout: 30_000 })
      .toEqual({
        likes: 1,
        commentsCount: 1,
        comments: ['Sent while the app was closed'],
        lastIds: [2],
      });

    // Opened again: nothing is pushed a second time, and the pull clears the Pending marks.
    const again = await context.newPage();
    const pushes: string[] = [];
    again.on('request', (r) => void (r.url().endsWith('/api/sync/push') && pushes.push(r.url())));
    await again.goto(`${server.url}/home`);
    const card = again.getByRole('article', { name: title });
    await card.waitFor();
    await expect.poll(() => card.getByText('Pending').count(), { timeout: 30_000 }).toBe(0);
    expect(await card.getByRole('button', { name: /^Like/ }).getAttribute('aria-label')).toBe('Like, 1 like');
    expect(await card.getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe('true');
    expect(await card.getByRole('button', { name: /^Comments/ }).getAttribute('aria-label')).toBe('Comments, 1 comment');
    expect(await again.getByText(/waiting to sync/).count()).toBe(0);
    expect(pushes).toEqual([]);
    expect(await serverState(server, email, videoId)).toMatchObject({ likes: 1, comments: ['Sent while the app was closed'], lastIds: [2] });
  });

  test('sends each change once when the open page and the worker both send at the same moment', async ({ server, context }) => {
    const title = 'Liked twice over';
    const { email, videoId, page, trigger } = await offlineBeside({ server, context }, 'Rita Racer', title);
    await likeAndCommentOffline(page, title, 'Only once please');

    // The network returns: the page's engine sends (online event) while the worker's sync runs.
    await context.setOffline(false);
    await Promise.all([trigger.fire(), trigger.fire()]);
    const card = page.getByRole('article', { name: title });
    await expect.poll(() => card.getByText('Pending').count(), { timeout: 30_000 }).toBe(0);
    await expect
      .poll(() => serverState(server, email, videoId), { timeout: 30_000 })
      .toEqual({
        likes: 1,
        commentsCount: 1,
        comments: ['Only once please'],
        lastIds: [2],
      });
  });

  test('rolls back a change the server refused while the app was closed, and says why when it opens', async ({ server, context }) => {
    const title = 'Gone before the comment';
    const { email, videoId, page, trigger } = await offlineBeside({ server, context }, 'Lena Late', title);
    const card = page.getByRole('article', { name: title });
    await card.getByRole('button', { name: /^Comments/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Comments' });
    await dialog.getByRole('textbox', { name: 'Add a comment' }).fill('Too late');
    await dialog.getByRole('textbox', { name: 'Add a comment' }).press('Enter');
    await dialog.getByText('Pending').waitFor();
    await page.close();
    // Meanwhile the video is removed on the server: the comment will be refused.
    await deleteVideo(server, videoId);

    await context.setOffline(false);
    await trigger.fire();
    // The refused id moves on (nothing applied): the worker has been through the queue.
    await expect.poll(() => serverState(server, email, videoId).then((s) => s.lastIds), { timeout: 30_000 }).toEqual([1]);

    const again = await context.newPage();
    await again.goto(`${server.url}/home`);
    await again.getByText('Comment Failed', { exact: true }).waitFor();
    expect(await again.getByText(/waiting to sync/).count()).toBe(0);
  });
});
