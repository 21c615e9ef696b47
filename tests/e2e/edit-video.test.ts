import { describe, expect } from 'vitest';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { onServer } from '../helpers/server-reads';
import { axeViolations } from './axe';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest } from './fixtures';
import { apiLogin, seedVideo } from './notifications-steps';

// Editing one's video from its card in Chromium (docs/sync.md, "Mutations", editVideo): from the
// keyboard, the rule's sentence on a bad title, the new texts on the card at once, offline too, and
// on the server with the video filed under its new tags once it is back online.

const test = pwaTest();

const serverVideo = (server: ServerProcess, videoId: string) =>
  onServer(server, async (db) => ({
    ...(await db.selectFrom('videos').select(['title', 'description']).where('id', '=', videoId).executeTakeFirstOrThrow()),
    tags: (await db.selectFrom('video_hashtags').select('tag').where('video_id', '=', videoId).orderBy('tag').execute()).map((r) => r.tag),
  }));

describe.skipIf(!hasChromium)('editing a video', () => {
  test('the owner edits a title and description from the keyboard, then offline; the card shows it at once and the server files it', async ({
    server,
    member,
  }) => {
    const ben = await member('Ben');
    const { userId } = await apiLogin(server, ben.email);
    const videoId = await seedVideo(server, userId, 'Morning walk');
    const { page, context } = ben;
    await page.goto(`${server.url}/home`);
    await waitForServiceWorker(page);
    const card = page.getByRole('article', { name: 'Morning walk' });
    await card.waitFor();

    // From the keyboard: the Edit action opens the dialog on its Title field.
    await card.getByRole('button', { name: 'Edit video Morning walk' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit Video' });
    await dialog.waitFor();
    const title = dialog.getByLabel('Title');
    await expect.poll(() => title.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await title.inputValue()).toBe('Morning walk');

    // An empty title is refused in the upload's words, on the field, and nothing is queued.
    await title.fill('   ');
    await page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'Please provide a title for the video.' }).waitFor();
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await saveScreenshot(page, 'edit-video-dialog');

    await title.fill('Evening walk #sunset');
    await dialog.getByLabel('Description (optional)').fill('By the #sea');
    await title.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const edited = page.getByRole('article', { name: 'Evening walk #sunset' });
    await edited.getByText('By the').waitFor();
    // Focus is back on the action that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit video Evening walk #sunset');
    await expect
      .poll(() => serverVideo(server, videoId), { timeout: 15_000 })
      .toEqual({ title: 'Evening walk #sunset', description: 'By the #sea', tags: ['sea', 'sunset'] });

    // Offline: shown at once, Pending, and sent when the network is back; Cancel changes nothing.
    await context.setOffline(true);
    await edited.getByRole('button', { name: 'Edit video Evening walk #sunset' }).click();
    await dialog.getByLabel('Title').fill('Discarded');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await edited.getByRole('button', { name: 'Edit video Evening walk #sunset' }).click();
    await dialog.getByLabel('Title').fill('Night walk #moon');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const night = page.getByRole('article', { name: 'Night walk #moon' });
    await night.getByText('Pending').waitFor();
    expect((await serverVideo(server, videoId)).title).toBe('Evening walk #sunset');
    await context.setOffline(false);
    await expect
      .poll(() => serverVideo(server, videoId), { timeout: 30_000 })
      .toEqual({ title: 'Night walk #moon', description: 'By the #sea', tags: ['moon', 'sea'] });
    await night.getByText('Pending').waitFor({ state: 'detached', timeout: 30_000 });
  });
});
