import { describe, expect } from 'vitest';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath, hasChromium, saveScreenshot } from '../helpers/browser';
import { pwaTest } from './fixtures';
import { CLIENT_DIST as DIST, logInThroughUi, signUpVerified, uniqueEmail } from './member-session';

const INITIAL_JS_BUDGET_GZIP = 150 * 1024;

/** Waits until a service worker controls the page (the worker claims clients when it activates). */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((ok) => navigator.serviceWorker.addEventListener('controllerchange', () => ok(), { once: true }));
    }
  });
}

const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true, maxRetries: 3 });

const test = pwaTest()
  // A private copy of the build, so the update test can publish a "new version" of the worker.
  .extend('distCopy', { scope: 'file' }, async ({}, { onCleanup }) => {
    const distCopy = mkdtempSync(join(tmpdir(), 'vidi-dist-'));
    onCleanup(() => removeDir(distCopy));
    cpSync(DIST, distCopy, { recursive: true });
    return distCopy;
  })
  .extend('serverEnv', { scope: 'file' }, async ({ distCopy }) => ({ CLIENT_DIST: distCopy }))
  // Incognito contexts are never installable: a real (persistent) profile, in a folder of its own.
  .extend('installableContext', async ({}, { onCleanup }): Promise<BrowserContext> => {
    const profile = mkdtempSync(join(tmpdir(), 'vidi-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    onCleanup(async () => {
      await context.close();
      removeDir(profile);
    });
    return context;
  });

describe('the production build', () => {
  test('keeps the initial route JavaScript within 150 KB gzipped', () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const total = scripts.reduce((sum, src) => sum + gzipSync(readFileSync(join(DIST, src))).length, 0);
    console.log(`initial route JS: ${scripts.length} files, ${(total / 1024).toFixed(1)} KB gzipped`);
    expect(total).toBeLessThanOrEqual(INITIAL_JS_BUDGET_GZIP);
    // The upload client (tus) is only loaded when an upload starts.
    for (const src of scripts) expect(readFileSync(join(DIST, src), 'utf8')).not.toContain('tus-resumable');
  });
});

describe.skipIf(!hasChromium)('installable PWA in Chromium', () => {
  test('has a manifest that passes the installability check', async ({ server, installableContext: context }) => {
    const res = await fetch(`${server.url}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as Record<string, any>;
    expect(manifest).toMatchObject({ name: 'Vidi', short_name: 'Vidi', display: 'standalone', start_url: '/home' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    const icons = manifest.icons as Array<{ src: string; sizes: string; purpose?: string }>;
    expect(icons.map((i) => `${i.sizes}:${i.purpose ?? 'any'}`).sort()).toEqual(['192x192:any', '512x512:any', '512x512:maskable']);
    for (const icon of icons) {
      const img = await fetch(server.url + icon.src);
      expect(img.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await img.arrayBuffer());
      const [w, h] = icon.sizes.split('x').map(Number);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([w, h]);
    }

    const page = await context.newPage();
    await page.goto(server.url + '/');
    await waitForServiceWorker(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
    const { url: manifestUrl, errors } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifestUrl).toBe(`${server.url}/manifest.webmanifest`);
    expect(errors).toEqual([]);
  });

  test('serves the shell and deep links from the service worker with no network', async ({ server, context }) => {
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await waitForServiceWorker(page);
    await context.setOffline(true);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Vidi' }).waitFor();
    // A deep link never visited online: the precached shell and its lazy screen (signed out: the login screen).
    await page.goto(server.url + '/signup');
    await page.getByRole('button', { name: 'Create Account' }).waitFor();
    await page.goto(server.url + '/rewards');
    await page.waitForURL('**/login');
    await page.getByText('Welcome back! Sign in to your account').waitFor();
  });

  test('offers a reload when a new version is waiting, and the reload runs the new worker', async ({ server, distCopy, context }) => {
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await waitForServiceWorker(page);
    const firstScript = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);

    // Publish a changed worker, as a deploy would, and let the page find it.
    appendFileSync(join(distCopy, 'sw.js'), `\n// new version ${Date.now()}\n`);
    // The build's compressed copies would still be the old worker: a deploy replaces them too.
    for (const copy of ['sw.js.br', 'sw.js.gz']) rmSync(join(distCopy, copy), { force: true });
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const reload = page.getByRole('button', { name: 'Reload' });
    await reload.waitFor();
    expect(await page.getByText('A new version of Vidi is available.').count()).toBe(1);

    const waitingBefore = await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting);
    expect(waitingBefore).toBe(true);
    await Promise.all([page.waitForEvent('load'), reload.click()]);
    await page.getByRole('heading', { level: 1, name: 'Vidi' }).waitFor();
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { waiting: !!reg?.waiting, controlled: !!navigator.serviceWorker.controller };
    });
    expect(state).toEqual({ waiting: false, controlled: true });
    expect(firstScript).toBe(`${server.url}/sw.js`);
  });

  test('saves phone and desktop screenshots of the main screens', async ({ server, browser }) => {
    const email = uniqueEmail('shots');
    await signUpVerified(server, 'Screenshot Member', email);
    const sizes: Array<[string, { width: number; height: number }]> = [
      ['phone', { width: 360, height: 740 }],
      ['desktop', { width: 1280, height: 800 }],
    ];
    for (const [label, viewport] of sizes) {
      const context: BrowserContext = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(server.url + '/');
      await page.getByRole('heading', { level: 1, name: 'Vidi' }).waitFor();
      await saveScreenshot(page, `pwa-landing-${label}`);
      await page.goto(server.url + '/signup');
      await page.getByRole('button', { name: 'Create Account' }).waitFor();
      await saveScreenshot(page, `pwa-signup-${label}`);
      await logInThroughUi(page, server, email);
      // The layout: bottom navigation only on small screens; the header links on wide ones.
      const bottomNav = page.getByRole('navigation', { name: 'Bottom' });
      expect(await bottomNav.isVisible()).toBe(label === 'phone');
      await page.getByRole('heading', { name: 'No videos yet' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
      await saveScreenshot(page, `pwa-home-${label}`);
      await page.goto(server.url + '/profile');
      await page.getByRole('button', { name: 'Save Changes' }).waitFor();
      await saveScreenshot(page, `pwa-profile-${label}`);
      await context.close();
    }
  });

  test('gives every control an accessible name and every page its landmarks', async ({ server, browser }) => {
    const email = uniqueEmail('a11y');
    await signUpVerified(server, 'Alex Access', email);
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const INTERACTIVE = new Set(['button', 'link', 'textbox', 'checkbox', 'combobox', 'searchbox', 'slider', 'switch', 'tab', 'menuitem']);
    const audit = async (label: string) => {
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
        nodes: Array<{ ignored: boolean; role?: { value: string }; name?: { value: string } }>;
      };
      const live = nodes.filter((n) => !n.ignored);
      const unnamed = live.filter((n) => INTERACTIVE.has(n.role?.value ?? '') && !(n.name?.value ?? '').trim()).map((n) => n.role?.value);
      expect({ label, unnamed }).toEqual({ label, unnamed: [] });
      expect(live.some((n) => n.role?.value === 'main')).toBe(true);
    };
    await page.goto(server.url + '/');
    await page.getByRole('heading', { level: 1, name: 'Vidi' }).waitFor();
    await audit('landing');
    await page.goto(server.url + '/signup');
    await page.getByRole('button', { name: 'Create Account' }).waitFor();
    await audit('signup');
    await logInThroughUi(page, server, email);
    await page.getByRole('heading', { name: 'No videos yet' }).waitFor();
    await audit('home');
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('navigation').count()).toBe(2);
    // Dialogs keep focus inside and give it back to the button that opened them.
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('dialog').waitFor();
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Upload');
    await page.getByRole('navigation', { name: 'Bottom' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).waitFor();
    await audit('profile');
    // The own creator page, from the link in /profile, and the Following tab with who to follow.
    await page.getByRole('link', { name: /^\/@/ }).click();
    await page.getByRole('link', { name: 'Edit profile' }).waitFor();
    await audit('creator page');
    await page.getByRole('navigation', { name: 'Bottom' }).getByRole('link', { name: 'Home' }).click();
    await page.getByRole('tab', { name: 'Following' }).click();
    await page.getByRole('heading', { name: 'Who to follow' }).waitFor();
    await audit('following');
    await context.close();
  });

  test('shows a way out, never a blank page, when a screen of the running version is gone after a deploy', async ({ server, browser, distCopy }) => {
    // No service worker here: it would keep serving the old version's files, which is the point of it.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await page.getByRole('heading', { level: 1, name: 'Vidi' }).waitFor();
    const chunk = readdirSync(join(distCopy, 'assets')).find((f) => /^LoginPage-.*\.js$/.test(f));
    expect(chunk).toBeDefined();
    const file = join(distCopy, 'assets', chunk!);
    renameSync(file, `${file}.gone`);
    try {
      await page.getByRole('link', { name: 'Login' }).click();
      await page.getByRole('heading', { level: 1, name: 'Something went wrong' }).waitFor();
      await page.getByRole('button', { name: 'Reload' }).waitFor();
    } finally {
      renameSync(`${file}.gone`, file);
    }
    // Once the file is there again (the new deploy complete), Reload recovers.
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByText('Welcome back! Sign in to your account').waitFor();
    await context.close();
  });
});
