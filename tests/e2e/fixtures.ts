import { test } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { signedInPage, type SignedInPage } from '../helpers/signed-in-page';
import { PASSWORD, signUpVerified, startPwaServer, uniqueEmail } from './member-session';

/** A member signed up over the API and signed in in a browser context of its own. */
export interface Member extends SignedInPage {
  email: string;
}

/**
 * The browser tests' shared pieces as vitest fixtures (test.extend), each torn down by the fixture
 * that made it, so a file states what it uses instead of a beforeAll and an afterAll of its own:
 *
 *   const test = pwaTest({ SOME_SETTING: '1' });   // the server's env, if the file needs one
 *   describe.skipIf(!hasChromium)('...', () => {
 *     test('...', async ({ server, browser, member }) => {
 *       const s = await member('Ada');              // closed after the test
 *     });
 *   });
 *
 * `server` (the production build on a fresh DATA_DIR, removed on stop) and `browser` (Chromium) are
 * made once per file, on first use, and stopped after the file's last test; `context` (a fresh
 * browser context) and `member` are per test. A file's own setup that needs the server is a
 * `test.beforeAll(async ({ server }) => ...)`: file-scoped fixtures reach suite hooks.
 */
// vitest reads which fixtures a fixture needs from its first parameter, which must be an object
// pattern even when it needs none: hence the `{}` below.
export function pwaTest(serverEnv: Record<string, string> = {}) {
  return test
    .extend('server', { scope: 'file' }, async ({}, { onCleanup }): Promise<ServerProcess> => {
      const server = await startPwaServer(serverEnv);
      onCleanup(() => server.stop());
      return server;
    })
    .extend('browser', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browser> => {
      const browser = await launchChromium();
      onCleanup(() => browser.close());
      return browser;
    })
    .extend('context', async ({ browser }, { onCleanup }): Promise<BrowserContext> => {
      const context = await browser.newContext();
      onCleanup(() => context.close());
      return context;
    })
    .extend('member', async ({ server, browser }, { onCleanup }) => {
      const opened: SignedInPage[] = [];
      onCleanup(async () => {
        for (const s of opened) await s.close();
      });
      return async (name: string): Promise<Member> => {
        // The name may hold spaces ('Nina New'); the address takes only its letters and digits.
        const email = uniqueEmail(name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
        await signUpVerified(server, name, email);
        const s = await signedInPage(browser, server.url, email, PASSWORD);
        opened.push(s);
        return { ...s, email };
      };
    });
}
