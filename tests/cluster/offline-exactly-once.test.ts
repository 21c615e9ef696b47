import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Cluster } from '../../scripts/lib/cluster/start-cluster';
import { hasChromium, launchChromium, saveScreenshot } from '../helpers/browser';
import { signedInPage, type SignedInPage } from '../helpers/signed-in-page';
import { waitForServiceWorker } from '../e2e/feed-actions';
import { tusUpload } from '../bench/lib/tus-upload';
import { mp4Faststart } from '../fixtures/videos';
import type { DbHandle } from '#db/connect';
import { PASSWORD, clusterDatabase, logIn, signUpVerified, startTestCluster, uniqueEmail, until } from './cluster-session';

/**
 * tests/e2e/offline.test.ts's promise, behind the balancer: a member likes and comments offline,
 * reloads, comes back; their pushes, pulls and event stream are spread over two instances by
 * round robin, and the database still holds each change exactly once.
 */
describe.skipIf(!hasChromium)('offline changes through the balancer', () => {
  let cluster: Cluster;
  let db: DbHandle;
  let browser: Browser;
  let session: SignedInPage | undefined;
  const title = 'Filmed before the flight';

  beforeAll(async () => {
    cluster = await startTestCluster({ workers: 1 });
    db = clusterDatabase(cluster);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await session?.close();
    await browser?.close();
    await db?.close();
    await cluster?.stop();
  });

  it('sends a like and a comment made offline exactly once when the network returns', async () => {
    const ownerEmail = uniqueEmail('owner');
    await signUpVerified(cluster, 'Olga Owner', ownerEmail);
    const { videoId } = await tusUpload({
      origin: cluster.url,
      token: (await logIn(cluster.url, ownerEmail)).token,
      data: readFileSync(await mp4Faststart()),
      title,
    });
    await until(
      'the video processed by the worker',
      async () => {
        const v = await db.db.selectFrom('videos').select('media_status').where('id', '=', videoId).executeTakeFirst();
        return v?.media_status === 'ready';
      },
      90_000,
    );

    const email = uniqueEmail('flyer');
    const userId = await signUpVerified(cluster, 'Fay Flyer', email);
    session = await signedInPage(browser, cluster.url, email, PASSWORD);
    const { page, context } = session;
    await page.goto(`${cluster.url}/home`);
    await page.getByRole('heading', { level: 1, name: 'Welcome, Fay Flyer!' }).waitFor();
    await waitForServiceWorker(page);
    const card = page.getByRole('article', { name: title });
    await card.waitFor();

    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: "You're offline" }).waitFor();
    await card.getByRole('button', { name: /^Like/ }).click();
    await expect.poll(() => card.getByRole('button', { name: /^Like/ }).getAttribute('aria-label')).toBe('Like, 1 like');
    await card.getByRole('button', { name: /^Comments/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Comments' });
    await dialog.getByRole('textbox', { name: 'Add a comment' }).fill('Written above the clouds');
    await dialog.getByRole('textbox', { name: 'Add a comment' }).press('Enter');
    await dialog.getByText('Pending').waitFor();
    await page.keyboard.press('Escape');

    // Reload with no network: the shell from the service worker, the changes from IndexedDB's outbox.
    await page.reload();
    const again = page.getByRole('article', { name: title });
    await again.waitFor();
    expect(await again.getByRole('button', { name: /^Like/ }).getAttribute('aria-label')).toBe('Like, 1 like');
    expect(await again.getByRole('button', { name: /^Comments/ }).getAttribute('aria-label')).toBe('Comments, 1 comment');
    await page.getByText('2 changes waiting to sync').waitFor();
    await saveScreenshot(page, 'cluster-offline-pending');

    const logFrom = cluster.accessLog().length;
    await context.setOffline(false);
    await expect.poll(() => page.getByText(/waiting to sync/).count(), { timeout: 60_000 }).toBe(0);

    const likes = await db.db.selectFrom('likes').select('user_id').where('video_id', '=', videoId).execute();
    const comments = await db.db.selectFrom('comments').select(['user_id', 'content']).where('video_id', '=', videoId).execute();
    const counters = await db.db.selectFrom('videos').select(['likes_count', 'comments_count']).where('id', '=', videoId).executeTakeFirstOrThrow();
    expect(likes).toEqual([{ user_id: userId }]);
    expect(comments).toEqual([{ user_id: userId, content: 'Written above the clouds' }]);
    expect({ likes: Number(counters.likes_count), comments: Number(counters.comments_count) }).toEqual({ likes: 1, comments: 1 });

    const pushes = cluster
      .accessLog()
      .slice(logFrom)
      .split('\n')
      .filter((l) => l.includes('"POST /api/sync/push '));
    console.log(`after coming back online: ${pushes.length} push request(s): ${pushes.map((l) => /upstream=(\S+)/.exec(l)?.[1]).join(', ')}`);
    expect(pushes.length).toBeGreaterThan(0);
  });
});
