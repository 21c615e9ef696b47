import { describe, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { signedInPage } from '../helpers/signed-in-page';
import { mp4Faststart } from '../fixtures/videos';
import { runUpload, videoMetadata } from '../fixtures/tus-client';
import { until } from '../helpers/media-jobs';
import { pwaTest } from './fixtures';
import { PASSWORD, signUpVerified, uniqueEmail } from './member-session';
import { toastText } from './toasts';

// The admin panel's Hashtags tab in Chromium (docs/moderation.md, "Hidden hashtags"): an admin finds a
// tag by its start, hides it and shows it again from the keyboard, and a member's page of it answers
// 404 meanwhile.

const test = pwaTest();

describe.skipIf(!hasChromium)('the Hashtags tab in Chromium', () => {
  test('finds a tag by its start, hides it and shows it again from the keyboard, audited', async ({ server, api, admin, browser }) => {
    const tag = `e2e_${randomUUID().slice(0, 8)}`;
    const email = uniqueEmail('tagger');
    await signUpVerified(server, 'Tara Tagger', email);
    const token = (await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })).json.access_token as string;
    const meta = videoMetadata({ title: `Evening light #${tag}` });
    await runUpload({ baseUrl: server.url, token, bytes: readFileSync(await mp4Faststart()), metadata: meta });
    const pageStatus = async () => (await api('GET', `/api/hashtags/${tag}`, token)).status;
    await until('the video filed under its tag', async () => (await api('GET', `/api/hashtags/${tag}`, token)).json.videos_count === 1, 90_000, {
      everyMs: 300,
    });

    const { page, close } = await signedInPage(browser, server.url, admin.email, PASSWORD);
    try {
      await page.goto(`${server.url}/admin`);
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
      await page.getByRole('tab', { name: 'Hashtags' }).click();
      const search = page.getByLabel('Search hashtags');
      await search.focus();
      await page.keyboard.type(`#${tag.slice(0, 8).toUpperCase()}`);
      const row = page.getByRole('row', { name: new RegExp(`#${tag}`) });
      await row.getByText('Visible', { exact: true }).waitFor();
      await expect.poll(() => page.getByRole('row').count()).toBe(2);
      expect(await row.getByRole('cell').nth(1).textContent()).toBe('1');

      // From the search box, Tab reaches the row's button; Enter hides, and the focus stays on it.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Hide #${tag}`);
      await page.keyboard.press('Enter');
      await toastText(page, 'Hashtag hidden');
      await row.getByText('Hidden', { exact: true }).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Unhide #${tag}`);
      expect(await pageStatus()).toBe(404);
      await page.getByRole('region', { name: 'Audit log' }).getByText('Hid a hashtag', { exact: true }).waitFor();
      await saveScreenshot(page, 'admin-hashtags');

      await page.keyboard.press('Enter');
      await toastText(page, 'Hashtag visible');
      await row.getByText('Visible', { exact: true }).waitFor();
      expect(await pageStatus()).toBe(200);
      await page.getByRole('region', { name: 'Audit log' }).getByText('Showed a hidden hashtag again', { exact: true }).waitFor();

      // Nothing starts with this: the empty state.
      await search.fill(`${tag}zz`);
      await page.getByText('No hashtags start with this.').waitFor();
    } finally {
      await close();
    }
  }, 180_000);
});
