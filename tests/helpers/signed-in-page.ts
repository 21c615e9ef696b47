import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { SESSION_USER_KEY } from '#client/lib/session/session-cache';

export interface SignedInPage {
  page: Page;
  context: BrowserContext;
  /** The access token of the API login, for calls made beside the browser. */
  token: string;
  close(): Promise<void>;
}

/**
 * A browser context of its own, signed in as `email` without going through a login screen (as
 * epic-stack's tests/playwright-utils.ts `login` fixture does): the API login leaves its refresh
 * cookie in the context's cookie jar, and the cached profile tells the app this device signed in
 * before, so the first page load restores the session through that cookie
 * (client/lib/session/session.ts, restoreSession). Dialogs are dismissed unless a test says otherwise.
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  password: string,
  contextOptions: BrowserContextOptions = {},
): Promise<SignedInPage> {
  const context = await browser.newContext(contextOptions);
  const res = await context.request.post(`${baseUrl}/api/auth/login`, { data: { email, password } });
  if (!res.ok()) throw new Error(`login of ${email} failed: ${res.status()} ${await res.text()}`);
  const session = (await res.json()) as { access_token: string; user: unknown };
  const page = await context.newPage();
  page.on('dialog', (d) => void d.dismiss());
  // Any document of the origin will do to write its storage; the health check loads no app code.
  await page.goto(`${baseUrl}/api/health`);
  await page.evaluate(([key, user]) => localStorage.setItem(key, user), [SESSION_USER_KEY, JSON.stringify(session.user)] as const);
  return { page, context, token: session.access_token, close: () => context.close() };
}
