import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PROJECT_ROOT } from './server-process';

/** Debian's Chromium, or CHROMIUM_PATH. Playwright's own browser download does not work here. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);

if (!hasChromium) {
  const message = `\n!!! Chromium not found at ${chromiumPath}: browser tests are SKIPPED. Install it (apt-get install -y chromium) or set CHROMIUM_PATH. !!!\n`;
  if (process.env.CI) throw new Error(message);
  console.warn(message);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

export const ARTIFACTS_DIR = join(PROJECT_ROOT, 'test-results');

/** Saves a full-page screenshot as a test artifact under test-results/screenshots. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const dir = join(ARTIFACTS_DIR, 'screenshots');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
