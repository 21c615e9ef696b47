import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium, saveScreenshot } from '../helpers/browser';
import { startServer, type ServerProcess } from '../helpers/server-process';

describe.skipIf(!hasChromium)('landing page in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the brand, the calls to action and the four features', async () => {
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
