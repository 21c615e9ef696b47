import { describe, expect } from 'vitest';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { pwaTest } from './fixtures';

const test = pwaTest();

describe.skipIf(!hasChromium)('landing page in Chromium', () => {
  test('shows the brand, the calls to action and the four features', async ({ server, browser }) => {
    const page = await browser.newPage();
    await page.goto(server.url + '/');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Vidi' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Get Started' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Login' }).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 2 }).count()).toBe(4);
    await saveScreenshot(page, 'landing-desktop');
    await page.close();
  });
});
