import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { pwaTest } from './fixtures';
import { PASSWORD, resetLinkFor, signUpVerified, uniqueEmail, untilFormAdopted } from './member-session';
import { closeToast, toastText } from './toasts';

// docs/decisions/0002-account-recovery-and-brute-force.md: the whole forgot -> mail -> reset -> sign-in path in Chromium, and the profile's
// "Change password" and "Sign out everywhere".

const NEW_PASSWORD = 'a brand new passphrase';
const NEWER_PASSWORD = 'an even newer passphrase';

async function apiLogin(server: ServerProcess, email: string, password: string) {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

async function signInThroughUi(page: Page, server: ServerProcess, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/login`);
  await untilFormAdopted(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

// Each test has its own member and its own browser context (the per-test `context`), so each runs alone.
const test = pwaTest();

describe.skipIf(!hasChromium)('account recovery in the browser', () => {
  test('forgot -> "Check your email" -> mailed link -> new password -> "Password updated" -> sign in with it; the old one is refused', async ({
    server,
    context,
  }) => {
    const page = await context.newPage();
    const email = uniqueEmail('forgot');
    await signUpVerified(server, 'Forgetful Member', email);
    // A session from elsewhere, opened before the reset, ends with it.
    const elsewhere = await apiLogin(server, email, PASSWORD);
    expect(elsewhere.status).toBe(200);

    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    // The URL changes before the screen does, and the sign-in screen has an Email field too: wait for this screen.
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    // The answer is awaited and checked first, so a failure says whether the request went out and what came back.
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/auth/password/forgot')),
      page.getByRole('button', { name: 'Send Reset Link' }).click(),
    ]);
    expect(answer.status()).toBe(202);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await page.getByText(`If an account uses ${email}, we have sent it a link to reset the password.`, { exact: false }).waitFor();
    await saveScreenshot(page, 'forgot-password-sent');

    const link = await resetLinkFor(server, email);
    expect(link.startsWith(`${server.url}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill('something else');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await toastText(page, 'Passwords do not match');
    await closeToast(page);
    await page.getByLabel('Confirm Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await toastText(page, 'Password updated');
    await page.waitForURL('**/login');
    await closeToast(page);

    const me = await fetch(`${server.url}/api/profile`, { headers: { authorization: `Bearer ${elsewhere.json.access_token}` } });
    expect(me.status).toBe(401);

    await signInThroughUi(page, server, email, PASSWORD);
    await toastText(page, 'Invalid login credentials');
    expect(new URL(page.url()).pathname).toBe('/login');
    await closeToast(page);

    await signInThroughUi(page, server, email, NEW_PASSWORD);
    await page.waitForURL('**/home');

    // The link was single-use.
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill(NEWER_PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(NEWER_PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('This reset link is invalid or has expired.', { exact: true }).waitFor();
  });

  test('/profile: "Change password" keeps this session, then "Sign out everywhere" ends it', async ({ server, context }) => {
    const page = await context.newPage();
    const email = uniqueEmail('changer');
    await signUpVerified(server, 'Changing Member', email, NEW_PASSWORD);
    const other = await apiLogin(server, email, NEW_PASSWORD);
    await signInThroughUi(page, server, email, NEW_PASSWORD);
    await page.waitForURL('**/home');
    await page.goto(`${server.url}/profile`);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await page.getByLabel('Current Password', { exact: true }).fill('not my password');
    await page.getByLabel('New Password', { exact: true }).fill(NEWER_PASSWORD);
    await page.getByLabel('Confirm New Password', { exact: true }).fill(NEWER_PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await toastText(page, 'Your current password is incorrect.');
    await closeToast(page);

    await page.getByLabel('Current Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await toastText(page, 'Password updated');
    await closeToast(page);
    await saveScreenshot(page, 'profile-password');
    // The other session ended; this one goes on.
    expect((await fetch(`${server.url}/api/profile`, { headers: { authorization: `Bearer ${other.json.access_token}` } })).status).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile');

    await page.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await page.waitForURL('**/login');
    await page.goto(`${server.url}/profile`);
    await page.waitForURL('**/login');
    await signInThroughUi(page, server, email, NEWER_PASSWORD);
    await page.waitForURL('**/home');
  });
});
