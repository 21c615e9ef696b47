import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { setTimeout as sleep } from 'node:timers/promises';
import { lastMailTo, readMailSink } from '../helpers/mail-sink';
import { join } from 'node:path';
import { PROJECT_ROOT, startServer, TEST_PASSWORD_COST, type ServerProcess } from '../helpers/server-process';

// Shared steps of the PWA browser tests (docs/pwa.md, "Tests"): a real sign-up over HTTP, the mailed link, a UI login.

/**
 * The client build under test: dist/client (built by the e2e global setup), or VIDI_CLIENT_DIST to test a
 * private build while other builds rewrite dist/ on the same machine.
 */
export const CLIENT_DIST = process.env.VIDI_CLIENT_DIST ?? join(PROJECT_ROOT, 'dist/client');

export { TEST_PASSWORD_COST };

/**
 * The renditions at x264's ultrafast preset instead of veryfast: the browser tests look at what is
 * played, offered and shown, not at the files' size for their quality, and their group runs with
 * both cores busy (Chromium), where each upload's encode stretched the waits for "ready"
 * (docs/benchmarks.md, "CI time"). tests/api and tests/integration keep the default.
 */
export const TEST_MEDIA_PRESET = { MEDIA_X264_PRESET: 'ultrafast' };

export function startPwaServer(env: Record<string, string> = {}, dataDir?: string): Promise<ServerProcess> {
  return startServer({ env: { CLIENT_DIST, ...TEST_PASSWORD_COST, ...TEST_MEDIA_PRESET, ...env }, ...(dataDir ? { dataDir } : {}) });
}

export const PASSWORD = 'correct horse 1';

/** Signs up over the real API and opens the mailed verification link: a member that can log in. */
export async function signUpVerified(server: ServerProcess, name: string, email: string, password = PASSWORD): Promise<void> {
  const res = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password }),
  });
  expect(res.status).toBe(201);
  const link = lastMailTo(server.dataDir, email).links.find((l) => l.includes('/api/auth/verify?token='));
  if (!link) throw new Error(`no verification link mailed to ${email}`);
  // The mailed link carries PUBLIC_URL; the test server may listen elsewhere, so keep path and query only.
  const { pathname, search } = new URL(link);
  const verified = await fetch(server.url + pathname + search, { redirect: 'manual' });
  expect(verified.headers.get('location')).toMatch(/\/login\?verified=1$/);
}

/**
 * Waits until React has adopted the page's form. A prerendered form shows before that; a press
 * before then is the browser's own submit, which reloads the page empty (on a busy machine the click
 * beat the app's scripts and the sign-in never happened).
 */
export async function untilFormAdopted(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('form button[type="submit"]');
    return !!button && Object.keys(button).some((k) => k.startsWith('__reactProps'));
  });
}

/** Logs in through the login screen and waits for the feed. */
export async function logInThroughUi(page: Page, server: ServerProcess, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${server.url}/login`);
  await untilFormAdopted(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/home');
  await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
}

/** The reset link of the newest reset mail to `email` (the forgot answer does not wait for the mail). */
export async function resetLinkFor(server: ServerProcess, email: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const mail = readMailSink(server.dataDir)
      .filter((m) => m.to.includes(email) && m.subject === 'Reset your Vidi password')
      .at(-1);
    const link = mail?.links.find((l) => l.includes('/reset-password?token='));
    if (link) return link;
    await sleep(50);
  }
  throw new Error(`no reset mail to ${email}`);
}
