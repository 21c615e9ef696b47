import { test } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, type BrowserKind } from '../helpers/browser';
import { PROJECT_ROOT, type ServerProcess } from '../helpers/server-process';
import { nodeEntryArgs } from '../../scripts/lib/node-entry';
import { signedInPage, type SignedInPage } from '../helpers/signed-in-page';
import { PASSWORD, signUpVerified, startPwaServer, TEST_PASSWORD_COST, uniqueEmail } from './member-session';
import { serverApi, type ServerApi } from './server-api';

const run = promisify(execFile);

/** A member signed up over the API and signed in in a browser context of its own. */
export interface Member extends SignedInPage {
  email: string;
}

/** The file's administrator, made on the command line, and an access token of theirs. */
export interface Admin {
  email: string;
  name: string;
  token: string;
}

export interface PwaServerOptions {
  /** Fills the server's data folder before the server first opens it (the folder goes with the server). */
  seed?: (dataDir: string) => Promise<void>;
  /** The full Chromium instead of its headless shell: for notifications, Web Push and Background Sync (tests/helpers/browser.ts). */
  browser?: BrowserKind;
}

/** The server fixture's server: with a seed, on a data folder this fixture made and removes on stop. */
async function startFileServer(env: Record<string, string>, { seed }: PwaServerOptions): Promise<ServerProcess> {
  if (!seed) return startPwaServer(env);
  const dataDir = mkdtempSync(join(tmpdir(), 'vidi-seeded-'));
  try {
    await seed(dataDir);
    const server = await startPwaServer(env, dataDir);
    // startServer leaves a folder it was given in place: this one is the fixture's to remove.
    const stop = server.stop;
    server.stop = async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
    };
    return server;
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
    throw e;
  }
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
 * `server` (the production build on a fresh DATA_DIR, removed on stop; `options.seed` fills it
 * first), `browser` (Chromium), `api` (JSON calls to the server) and `admin` (an administrator) are
 * made once per file, on first use, and stopped after the file's last test; `context` (a fresh
 * browser context) and `member` are per test. A file's own setup that needs the server is a
 * `test.beforeAll(async ({ server }) => ...)`: file-scoped fixtures reach suite hooks. A server env
 * that depends on another fixture (a stand-in's address) overrides `serverEnv`:
 * `.extend('serverEnv', { scope: 'file' }, async ({ standIn }) => ({ ... }))`.
 */
// vitest reads which fixtures a fixture needs from its first parameter, which must be an object
// pattern even when it needs none: hence the `{}` below.
export function pwaTest(serverEnv: Record<string, string> = {}, options: PwaServerOptions = {}) {
  return test
    .extend('serverEnv', { scope: 'file' }, serverEnv)
    .extend('server', { scope: 'file' }, async ({ serverEnv }, { onCleanup }): Promise<ServerProcess> => {
      const server = await startFileServer(serverEnv, options);
      onCleanup(() => server.stop());
      return server;
    })
    .extend('api', { scope: 'file' }, async ({ server }): Promise<ServerApi> => serverApi(server))
    .extend('admin', { scope: 'file' }, async ({ server, api }): Promise<Admin> => {
      // Administrators come from the command line (docs/decisions/0013-the-server-enforces-every-rule.md),
      // against the server's DATA_DIR; they go with the server's data. Hashed at the servers' test cost.
      const admin = { email: uniqueEmail('admin'), name: 'Root Admin' };
      await run(process.execPath, [...nodeEntryArgs('admin'), '--email', admin.email, '--password', PASSWORD, '--name', admin.name], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'error', ...TEST_PASSWORD_COST },
      });
      const login = await api('POST', '/api/auth/login', undefined, { email: admin.email, password: PASSWORD });
      if (login.status !== 200) throw new Error(`the admin could not sign in: ${login.status}`);
      return { ...admin, token: login.json.access_token as string };
    })
    .extend('browser', { scope: 'file' }, async ({}, { onCleanup }): Promise<Browser> => {
      const browser = await launchChromium(options.browser);
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
