import { describe, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { acceptNextDialog } from '../helpers/browser-dialogs';
import { signedInPage, type SignedInPage } from '../helpers/signed-in-page';
import { mp4Faststart } from '../fixtures/videos';
import { runUpload, videoMetadata } from '../fixtures/tus-client';
import { until } from '../helpers/media-jobs';
import { pwaTest } from './fixtures';
import { PASSWORD, signUpVerified, uniqueEmail, untilFormAdopted } from './member-session';
import { toastText, closeToast } from './toasts';

const CONFIRM_USER = 'Are you sure you want to delete this user? This action cannot be undone.';
const CONFIRM_VIDEO = 'Are you sure you want to delete this video? This action cannot be undone.';
const uploaderEmail = uniqueEmail('uploader');
const viewerEmail = uniqueEmail('viewer');
const title = 'Sunset over the test pattern';

const expectAudited = (page: Page, what: string) => page.getByRole('region', { name: 'Audit log' }).getByText(what, { exact: true }).first().waitFor();

const test = pwaTest()
  .extend('steps', { scope: 'file' }, async ({ server, api }) => {
    const loginApi = async (email: string) => (await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })).json;
    const upload = async (videoTitle: string) => {
      const meta = videoMetadata({ title: videoTitle });
      const token = (await loginApi(uploaderEmail)).access_token;
      await runUpload({ baseUrl: server.url, token, bytes: readFileSync(await mp4Faststart()), metadata: meta });
      // Others may like it once it is ready (docs/sync.md, "Mutations").
      const ready = async () =>
        (await api('GET', '/api/videos?limit=50', token)).json.items.some(
          (v: { id: string; media_status: string }) => v.id === meta.videoId && v.media_status === 'ready',
        );
      await until(`${videoTitle} ready`, ready, 90_000, { everyMs: 300 });
      return meta.videoId!;
    };
    /** A member of this test only, so what it does to them changes no other test. */
    const newMember = async (name: string) => {
      const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
      await signUpVerified(server, name, email);
      return email;
    };
    return { loginApi, upload, newMember };
  })
  // The browser contexts a test signed in, closed after it.
  .extend('signIn', async ({ server, browser }, { onCleanup }) => {
    const sessions: SignedInPage[] = [];
    onCleanup(async () => {
      for (const s of sessions) await s.close();
    });
    return async (email: string) => {
      const s = await signedInPage(browser, server.url, email, PASSWORD);
      sessions.push(s);
      return s;
    };
  })
  /** The admin, signed in, on /admin. */
  .extend('adminPage', async ({ server, admin, signIn }) => async (): Promise<Page> => {
    const { page } = await signIn(admin.email);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    return page;
  });

// Each test signs in its own browser contexts (tests/helpers/signed-in-page.ts) and acts on members
// and videos it made itself, so any one of them runs alone (`-t`). The shared world, made once: an
// admin, Asha's video, and Bala's like of it.
describe.skipIf(!hasChromium)('admin dashboard in Chromium', () => {
  test.beforeAll(async ({ server, api, steps: { loginApi, upload } }) => {
    await signUpVerified(server, 'Asha Uploader', uploaderEmail);
    await signUpVerified(server, 'Bala Viewer', viewerEmail);
    // The uploader's video goes in through the real tus endpoint, Bala's like through the real sync
    // push (the feed's own like button is the PWA tests' subject).
    const videoId = await upload(title);
    const push = await api('POST', '/api/sync/push', (await loginApi(viewerEmail)).access_token, {
      client_id: randomUUID(),
      mutations: [{ id: 1, name: 'like', args: { videoId } }],
    });
    expect(push.status).toBe(200);
    expect(push.json.results[0].status).toBe('applied');
  });

  test('sends a signed-out visitor from /admin to /admin/login, and refuses a member with Access Denied', async ({ server, context }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/admin`);
    await page.waitForURL('**/admin/login');
    await page.getByLabel('Email').fill(uploaderEmail);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: 'Login' }).click();
    await toastText(page, 'Access Denied');
    await page.getByText('You are not an administrator.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    // Signed in as a member, /admin leads to the feed.
    await page.goto(`${server.url}/admin`);
    await page.waitForURL('**/home');
  });

  test('an admin signs in and sees the stat cards and the Users tab', async ({ server, context, admin: { email: adminEmail } }) => {
    const admin = await context.newPage();
    await admin.goto(`${server.url}/admin/login`);
    await untilFormAdopted(admin);
    await admin.getByLabel('Email').fill(adminEmail);
    await admin.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await admin.getByRole('button', { name: 'Login' }).click();
    await toastText(admin, 'Admin Access Granted');
    await admin.getByText('Welcome, administrator!').waitFor();
    await admin.waitForURL('**/admin');
    // The shared world only (the admin, Asha and Bala; Asha's video): the tests before this one add nothing.
    const stats = admin.getByRole('region', { name: 'Statistics' });
    for (const label of ['Total Users', 'Total Videos', 'Active Users', 'Revenue (₹)']) await stats.getByRole('heading', { name: label }).waitFor();
    await expect.poll(() => stats.locator('.stat-card').nth(0).locator('.stat-value').textContent()).toBe('3');
    expect(await stats.locator('.stat-card').nth(1).locator('.stat-value').textContent()).toBe('1');
    expect(await stats.locator('.stat-card').nth(3).locator('.stat-value').textContent()).toBe('₹0');
    expect(await admin.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true');
    await admin
      .getByRole('button', { name: 'Home' })
      .or(admin.getByRole('link', { name: 'Home' }))
      .first()
      .waitFor();
    await admin.getByRole('button', { name: 'Logout' }).waitFor();
    await admin
      .getByRole('row', { name: /Bala Viewer/ })
      .getByText('Active', { exact: true })
      .waitFor();
    await saveScreenshot(admin, 'admin-users');
  });

  test('suspends a member: their session is refused at once and they end up at /login; reactivated, they may sign in again', async ({
    server,
    api,
    steps: { newMember },
    signIn,
    adminPage,
  }) => {
    const email = await newMember('Chandra Suspended');
    const member = await signIn(email);
    await member.page.goto(`${server.url}/home`);
    await member.page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    const admin = await adminPage();
    await admin.getByLabel('Search users').fill('chandra');
    await expect.poll(() => admin.getByRole('row').count()).toBe(2);
    await admin.getByRole('button', { name: 'Suspend Chandra Suspended' }).click();
    await admin
      .getByRole('row', { name: /Chandra Suspended/ })
      .getByText('Suspended', { exact: true })
      .waitFor();

    const refused = await api('GET', '/api/profile', member.token);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe('account_suspended');
    expect((await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })).status).toBe(403);
    await member.page.reload();
    await member.page.waitForURL('**/login');
    await expectAudited(admin, 'Suspended a user');

    await admin.getByRole('button', { name: 'Reactivate Chandra Suspended' }).click();
    await admin
      .getByRole('row', { name: /Chandra Suspended/ })
      .getByText('Active', { exact: true })
      .waitFor();
    expect((await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })).status).toBe(200);
    await expectAudited(admin, 'Reactivated a user');
  });

  test('changes the prizes and the date, and /rewards shows them', async ({ server, adminPage }) => {
    const admin = await adminPage();
    await admin.getByRole('tab', { name: 'Rewards' }).click();
    await admin.getByLabel('Best Users prize #1 (₹)').fill('5000');
    await admin.getByLabel('Best Viewers prize #1 (₹)').fill('777');
    await admin.getByLabel('Distribution date').fill('2026-12-31');
    await admin.getByRole('button', { name: 'Save Rewards' }).click();
    await toastText(admin, 'Settings updated');
    await admin.getByText('Admin settings have been saved successfully').waitFor();
    await saveScreenshot(admin, 'admin-rewards');
    await expectAudited(admin, 'Updated the rewards');

    await admin.goto(`${server.url}/rewards`);
    await admin.getByTestId('distribution-date').getByText('December 31, 2026').waitFor();
    const users = admin.getByRole('region', { name: 'Best Users' });
    await users
      .getByRole('row', { name: /Asha Uploader/ })
      .getByText('₹5,000')
      .waitFor();
    const viewers = admin.getByRole('region', { name: 'Best Viewers' });
    await viewers
      .getByRole('row', { name: /Bala Viewer/ })
      .getByText('₹777')
      .waitFor();
  });

  test("shows each leader's points by source and voids a member's points after a confirmation, from the keyboard", async ({ adminPage }) => {
    const admin = await adminPage();
    await admin.getByRole('tab', { name: 'Rewards' }).click();
    const breakdown = admin.getByRole('region', { name: 'Points by source' });
    const asha = breakdown.getByRole('row', { name: /Asha Uploader/ });
    await asha.waitFor();
    // Asha: 1 like received; Bala: 1 like given.
    expect((await asha.getByRole('cell').allTextContents()).slice(0, 3)).toEqual(['#1 · 1', '1', '0']);
    await breakdown.getByText('capped at 200 per member per day', { exact: false }).waitFor();
    await saveScreenshot(admin, 'admin-rewards-breakdown');

    const messages = acceptNextDialog(admin);
    await breakdown.getByRole('button', { name: "Void Bala Viewer's points" }).focus();
    await admin.keyboard.press('Enter');
    await toastText(admin, 'Points voided');
    expect(messages[0]).toMatch(/^Void Bala Viewer's points for this period\?/);
    // Bala's like no longer counts for anyone: nobody has points left.
    await breakdown.getByText('Nobody has points in this period yet.').waitFor();
    await breakdown.getByRole('listitem').filter({ hasText: 'Bala Viewer' }).waitFor();
    await closeToast(admin);
    await expectAudited(admin, "Voided a member's points");
  });

  test('deletes a video: it leaves the list and its file answers 404', async ({
    server,
    api,
    steps: { loginApi, upload },
    adminPage,
    admin: { email: adminEmail },
  }) => {
    const doomed = 'A clip to delete';
    const videoId = await upload(doomed);
    // Others (the admin's feed) see it once processed; then both the original and the ladder are served.
    const token = (await loginApi(adminEmail)).access_token;
    const listed = async () =>
      ((await api('GET', '/api/videos?limit=50', token)).json.items as Array<{ id: string; video_url: string; hls_url: string | null }>).find(
        (v) => v.id === videoId,
      );
    await expect.poll(async () => (await listed())?.hls_url ?? null, { timeout: 90_000 }).not.toBeNull();
    const { video_url: videoUrl, hls_url: hlsUrl } = (await listed())!;
    expect((await fetch(server.url + videoUrl)).status).toBe(200);
    expect((await fetch(server.url + hlsUrl!)).status).toBe(200);
    const admin = await adminPage();
    await admin.getByRole('tab', { name: 'Videos' }).click();
    const item = admin.locator(`[data-video-id="${videoId}"]`);
    await item.getByText(doomed).waitFor();
    const messages = acceptNextDialog(admin);
    await admin.getByRole('button', { name: `Delete ${doomed}` }).click();
    await toastText(admin, 'Video deleted');
    await admin.getByText('Video has been removed from the platform').waitFor();
    expect(messages).toEqual([CONFIRM_VIDEO]);
    await item.waitFor({ state: 'detached' });
    expect((await fetch(server.url + videoUrl)).status).toBe(404);
    expect((await fetch(server.url + hlsUrl!)).status).toBe(404);
    await expectAudited(admin, 'Deleted a video');
  });

  test('saves the settings together; secrets show only as set / not set', async ({ api, steps: { loginApi }, adminPage, admin: { email: adminEmail } }) => {
    const admin = await adminPage();
    await admin.getByRole('tab', { name: 'Settings' }).click();
    const form = admin.getByRole('form', { name: 'Admin settings' });
    await form.getByText('(not set)').first().waitFor();
    await form.getByLabel('Entry fee enabled').check();
    await form.getByLabel('Entry fee amount (₹)').fill('99');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await toastText(admin, 'Update Failed');
    await admin.getByText(/cannot be enabled while Razorpay has no key id and key secret/).waitFor();
    await closeToast(admin);

    await form.getByLabel('Razorpay key id').fill('rzp_test_e2e123');
    await form.getByLabel(/Razorpay key secret/).fill('e2e-secret-value');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await toastText(admin, 'Settings updated');
    await form.getByText('(set)').first().waitFor();
    expect(await form.getByLabel(/Razorpay key secret/).inputValue()).toBe('');
    expect(await admin.content()).not.toContain('e2e-secret-value');
    const pub = await api('GET', '/api/settings/public');
    expect(pub.json.entry_fee).toEqual({ enabled: true, amount: 99 });

    // The daily viewer points cap: out of range the browser refuses to submit (min 1), empty the
    // form explains; in range it is saved.
    await closeToast(admin);
    const cap = form.getByLabel('Viewer points per member per day');
    await cap.fill('0');
    expect(await cap.evaluate((el) => (el as HTMLInputElement).validity.valid)).toBe(false);
    await cap.fill('');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await toastText(admin, 'Update Failed');
    await admin.getByText('The viewer points cap must be a whole number from 1 to 100000.').waitFor();
    await closeToast(admin);
    await cap.fill('50');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await toastText(admin, 'Settings updated');
    const token = (await loginApi(adminEmail)).access_token;
    expect((await api('GET', '/api/admin/settings', token)).json.limits).toEqual({ viewer_daily_points_cap: 50, upload_daily_mib: 2048 });
    await saveScreenshot(admin, 'admin-settings');
    await expectAudited(admin, 'Updated the settings');
  });

  test('deletes a user after the confirmation', async ({ api, steps: { newMember }, adminPage }) => {
    const email = await newMember('Dev Deleted');
    const admin = await adminPage();
    await admin.getByLabel('Search users').fill('dev deleted');
    const messages = acceptNextDialog(admin);
    await admin.getByRole('button', { name: 'Delete Dev Deleted' }).click();
    await toastText(admin, 'User deleted');
    await admin.getByText('User has been removed from the platform').waitFor();
    expect(messages).toEqual([CONFIRM_USER]);
    await admin.getByText('No users match this search.').waitFor();
    expect((await api('POST', '/api/auth/login', undefined, { email, password: PASSWORD })).status).toBe(401);

    // The newest row of the audit log, with who did it.
    const rows = admin.getByRole('region', { name: 'Audit log' }).getByRole('row');
    await rows.nth(1).getByText('Deleted a user').waitFor();
    await rows.nth(1).getByText(email).waitFor();
    await rows.nth(1).getByText('Root Admin').waitFor();
  });

  test('Logout leads back to /admin/login', async ({ adminPage }) => {
    const admin = await adminPage();
    await admin.getByRole('button', { name: 'Logout' }).click();
    await admin.waitForURL('**/admin/login');
  });
});
