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

/**
 * Debian's chromium-headless-shell, or CHROMIUM_HEADLESS_SHELL_PATH: Chromium's headless build
 * without the desktop browser around it. The browser tests' pages, service workers, IndexedDB, MSE
 * and media run in it as in the full browser for about a third less CPU (docs/benchmarks.md, "CI
 * time"); it has no notifications, Web Push or Background Sync, which `full` asks for.
 */
const headlessShellPath = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
const hasHeadlessShell = existsSync(headlessShellPath);

if (hasChromium && !hasHeadlessShell) {
  const message = `\n!!! chromium-headless-shell not found at ${headlessShellPath}: browser tests run in the full Chromium (slower). apt-get install -y chromium-headless-shell. !!!\n`;
  if (process.env.CI) throw new Error(message);
  console.warn(message);
}

/** What a test needs of the browser: `full` for notifications, Web Push and Background Sync. */
export type BrowserKind = 'shell' | 'full';

export async function launchChromium(kind: BrowserKind = 'shell'): Promise<Browser> {
  return chromium.launch({
    executablePath: kind === 'shell' && hasHeadlessShell ? headlessShellPath : chromiumPath,
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
