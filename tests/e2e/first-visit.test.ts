import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import { firstH1Text, titleOf, watchProblems } from '../helpers/page-problems';
import { logInThroughUi, PASSWORD, signUpVerified, uniqueEmail } from './member-session';
import { pwaTest } from './fixtures';

// Issue 17, the first visit: the public pages arrive as finished HTML (prerendered at build time),
// React adopts that markup instead of drawing it again, and a visit logs nothing in the console.

/** The public pages, what a visitor reads first on each, and what the tab says. */
const PUBLIC_PAGES = [
  { path: '/', heading: 'Vidi', title: 'Vidi: share short videos, like, comment and win rewards' },
  { path: '/login', heading: 'Sign In', title: 'Sign In · Vidi' },
  { path: '/signup', heading: 'Create Account', title: 'Create Account · Vidi' },
  { path: '/forgot-password', heading: 'Forgot Password', title: 'Forgot Password · Vidi' },
  { path: '/admin/login', heading: 'Admin Login', title: 'Admin Login · Vidi' },
] as const;

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

/**
 * Runs before any of the page's scripts. When the parser has read the whole HTML the document
 * turns 'interactive', and only then do module scripts run (HTML's "the end" of parsing): the
 * <h1> in #root at that moment is the one the HTML brought. Every child of #root removed later is
 * also noted. React hydrating the prerendered markup keeps both; rendering from scratch would
 * replace them.
 */
const WATCH_ROOT = `(() => {
  window.__removedFromRoot = [];
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'interactive') window.__parsedH1 = document.querySelector('#root h1');
  });
  new MutationObserver((records) => {
    const root = document.getElementById('root');
    for (const r of records) if (r.target === root) for (const n of r.removedNodes) window.__removedFromRoot.push(n.nodeName);
  }).observe(document, { childList: true, subtree: true });
})();`;

/** True once React has taken the node over (it keeps its fiber on the element). */
const ADOPTED_BY_REACT = `(() => {
  const h1 = document.querySelector('#root h1');
  return !!h1 && Object.keys(h1).some((k) => k.startsWith('__reactFiber'));
})()`;

/** Runs before the page's scripts: notes every request the page's Content-Security-Policy refuses. */
const WATCH_CSP = `(() => {
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.effectiveDirective + ' ' + e.blockedURI);
  });
})();`;

const test = pwaTest();

describe.skipIf(!hasChromium)('the first visit', () => {
  for (const p of PUBLIC_PAGES) {
    test(`a visitor opens ${p.path}: its heading and title, nothing in the console, no failed request`, async ({ server, context }) => {
      const page = await context.newPage();
      const problems = watchProblems(page);
      const res = await page.goto(server.url + p.path, { waitUntil: 'networkidle' });
      expect(res?.status()).toBe(200);
      await heading(page, p.heading).waitFor();
      await expect.poll(() => page.evaluate(ADOPTED_BY_REACT)).toBe(true);
      expect(await page.title()).toBe(p.title);
      expect(problems).toEqual([]);
    });
  }

  test('shows every public page without JavaScript: the heading is in the HTML itself', async ({ server, browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    for (const p of PUBLIC_PAGES) {
      const res = await page.goto(server.url + p.path);
      expect(res?.status(), p.path).toBe(200);
      expect(await heading(page, p.heading).isVisible(), `${p.path} shows "${p.heading}" with scripts off`).toBe(true);
      expect(await page.title(), p.path).toBe(p.title);
    }
    await context.close();
  });

  test('answers every public page with its heading and title in the HTML (a plain fetch, no browser)', async ({ server }) => {
    for (const p of PUBLIC_PAGES) {
      const res = await fetch(server.url + p.path);
      expect(res.status, p.path).toBe(200);
      expect(res.headers.get('content-type'), p.path).toMatch(/^text\/html/);
      const html = await res.text();
      expect(firstH1Text(html), p.path).toBe(p.heading);
      expect(titleOf(html), p.path).toBe(p.title);
      // A form pressed before React adopts it would be sent by the browser itself, a GET with the
      // password in the address: its submit button comes disabled (client/lib/useHydrated.ts).
      const submits = [...html.matchAll(/<button[^>]*type="submit"[^>]*>/g)].map((m) => m[0]);
      expect(submits.length, p.path).toBe(p.path === '/' ? 0 : 1);
      for (const button of submits) expect(button, p.path).toMatch(/\sdisabled=""/);
    }
  });

  test("preloads /home's own code in a few files from the shell, and none of it from a public page", async ({ server }) => {
    const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
    // Issue 32: the member screens' code was 27 small chunks, a round trip per few of them on a slow
    // phone's first visit; grouped (scripts/build/home-chunk.ts) the shell names a handful.
    const shell = preloads(await (await fetch(server.url + '/home')).text());
    const home = shell.filter((href) => /\/assets\/home(-lib|-sync)?-[\w-]+\.js$/.test(href));
    expect(home.length).toBeGreaterThan(0);
    // The sync engine comes with them, as one file, not after the refresh (scripts/build/public-pages.ts,
    // SESSION_PRELOADS).
    expect(home.filter((href) => /\/home-sync-/.test(href))).toHaveLength(1);
    expect(shell.length).toBeLessThanOrEqual(16);
    for (const p of PUBLIC_PAGES) {
      const html = await (await fetch(server.url + p.path)).text();
      expect(
        preloads(html).filter((href) => home.includes(href)),
        p.path,
      ).toEqual([]);
    }
  });

  test('hydrates /login instead of drawing it again, then the form and the links work in place', async ({ server, context }) => {
    await context.addInitScript(WATCH_ROOT);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}/login`);
    await expect.poll(() => page.evaluate(ADOPTED_BY_REACT), { timeout: 20_000 }).toBe(true);
    // The <h1> React holds is the one the HTML brought, and nothing the HTML brought was removed.
    expect(await page.evaluate(`window.__parsedH1 instanceof HTMLHeadingElement`)).toBe(true);
    expect(await page.evaluate(`document.querySelector('#root h1') === window.__parsedH1`)).toBe(true);
    expect(await page.evaluate(`window.__removedFromRoot`)).toEqual([]);

    await expect.poll(() => page.getByRole('button', { name: 'Sign In' }).isEnabled()).toBe(true);
    await page.getByLabel('Email').fill('visitor@example.test');
    await page.getByLabel('Password', { exact: true }).fill('not yet');
    expect(await page.getByLabel('Email').inputValue()).toBe('visitor@example.test');

    // A link followed by the router, not the browser: no new document is requested.
    await page.evaluate(`window.__sameDocument = true`);
    const documents: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents.push(r.url());
    });
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL('**/signup');
    await heading(page, 'Create Account').waitFor();
    expect(await page.evaluate(`window.__sameDocument === true`)).toBe(true);
    expect(documents).toEqual([]);
    expect(await page.title()).toBe('Create Account · Vidi');
    expect(problems).toEqual([]);
  });

  test('keeps what a visitor typed before the page came alive, and sends it', async ({ server, context }) => {
    // The page's scripts are held back while the visitor types into the prerendered form, as on a slow phone.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`, { waitUntil: 'commit' });
    await page.getByLabel('Email').fill('early@example.test');
    await page.getByLabel('Password', { exact: true }).fill('typed early');
    expect(await page.getByRole('button', { name: 'Sign In' }).isDisabled()).toBe(true);
    release();
    await expect.poll(() => page.evaluate(ADOPTED_BY_REACT), { timeout: 20_000 }).toBe(true);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/auth/login') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Sign In' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ email: 'early@example.test', password: 'typed early' });
    expect(await page.getByLabel('Email').inputValue()).toBe('early@example.test');
  });

  test('sends a member who signed in before from /login to /home, quietly', async ({ server, context }) => {
    const email = uniqueEmail('first-visit');
    await signUpVerified(server, 'First Visit', email);
    const first = await context.newPage();
    await logInThroughUi(first, server, email);
    await first.close();
    // Another day, a new tab: the device holds the refresh cookie and the cached profile.
    await context.addInitScript(WATCH_CSP);
    const page = await context.newPage();
    const problems = watchProblems(page);
    const pulled = page.waitForResponse((r) => r.url().endsWith('/api/sync/pull'));
    await page.goto(`${server.url}/login`);
    await page.waitForURL('**/home');
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/home');
    // The first pull's answer is validated (zod) and its poster hinted before the write: the page's
    // policy refused nothing on the way (Lighthouse's "Content security policy" issue).
    await pulled;
    await page.getByRole('heading', { level: 2, name: 'No videos yet' }).waitFor();
    expect(await page.evaluate(`window.__cspViolations`)).toEqual([]);
    expect(problems).toEqual([]);
  });

  // Issue 26: a member whose refresh cookie has gone (its 30 days ran out, or the cookies were
  // cleared) still has the cached profile; the app asked the server anyway and logged a 400.
  test('a member back after the refresh cookie has gone: landing, sign in, home, and nothing in the console', async ({ server, context }) => {
    const email = uniqueEmail('back-later');
    await signUpVerified(server, 'Back Later', email);
    const first = await context.newPage();
    await logInThroughUi(first, server, email);
    await first.close();
    await context.clearCookies();
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${server.url}/`);
    await heading(page, 'Vidi').waitFor();
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    // Until the sync engine's first pull is in, too.
    const pulled = page.waitForResponse((r) => r.url().endsWith('/api/sync/pull'));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/home');
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await pulled;
    expect(problems).toEqual([]);
  });

  test('answers an unknown page 404 with the app Not Found page, and a missing file 404 without HTML', async ({ server, context }) => {
    const page = await context.newPage();
    const res = await page.goto(`${server.url}/no-such-page`);
    expect(res?.status()).toBe(404);
    await heading(page, 'Page not found').waitFor();

    const missing = await fetch(`${server.url}/missing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type') ?? '').not.toMatch(/html/);
    expect(await missing.text()).not.toMatch(/<html|<!doctype/i);
  });
});
