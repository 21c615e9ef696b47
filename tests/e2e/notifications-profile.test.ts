import { describe, expect } from 'vitest';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import type { SignedInPage } from '../helpers/signed-in-page';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest } from './fixtures';
import { api, apiLogin } from './notifications-steps';

// Notifications, Web Push and Background Sync are the full browser's, not its headless shell's.
const test = pwaTest({}, { browser: 'full' });

describe.skipIf(!hasChromium)('the Notifications section of /profile', () => {
  const section = (s: SignedInPage) => s.page.getByRole('region', { name: 'Notifications' });

  test('keeps a choice the member changed (the server has it) over a reload, and locks the choices offline', async ({ server, member }) => {
    const s = await member('Chooser');
    await s.page.goto(`${server.url}/profile`);
    const likes = section(s).getByRole('checkbox', { name: 'Likes and new followers' });
    await likes.waitFor();
    expect(await likes.isChecked()).toBe(true);
    await likes.uncheck();
    const { token } = await apiLogin(server, s.email);
    await expect
      .poll(async () => (await api(server, token, 'GET', '/api/notifications/preferences')).json)
      .toEqual({
        likes: false,
        comments: true,
        processing: true,
        prizes: true,
      });

    await s.page.reload();
    await likes.waitFor();
    expect(await likes.isChecked()).toBe(false);
    expect(await section(s).getByRole('checkbox', { name: 'Prize results' }).isChecked()).toBe(true);
    await saveScreenshot(s.page, 'profile-notifications');

    await s.context.setOffline(true);
    await section(s).getByText('You are offline: these choices can be changed when you are back online.').waitFor();
    expect(await likes.isDisabled()).toBe(true);
    await s.context.setOffline(false);
    await expect.poll(() => likes.isDisabled()).toBe(false);
  });

  test('says how to allow notifications when the browser blocks them', async ({ server, member }) => {
    const s = await member('Blocked');
    await s.page.goto(`${server.url}/profile`);
    await waitForServiceWorker(s.page);
    const device = section(s).getByRole('switch', { name: 'Notifications on this device' });
    await device.click();
    await section(s)
      .getByText(/Notifications are blocked for Vidi\. To allow them/)
      .waitFor();
    expect(await device.isChecked()).toBe(false);
    expect(await device.isDisabled()).toBe(true);
  });

  test('turns push on for this device as far as the browser goes, and says so when its push service cannot be reached', async ({ server, member }) => {
    // Headless Chromium has no push service to register with here: subscribe() is refused, so the
    // subscription's way to the server is the server's tests' subject (web-push-testing).
    const s = await member('Pusher');
    await s.context.grantPermissions(['notifications'], { origin: server.url });
    const calls: string[] = [];
    s.page.on('request', (r) => new URL(r.url()).pathname.startsWith('/api/push/') && calls.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await s.page.goto(`${server.url}/profile`);
    await waitForServiceWorker(s.page);
    const device = section(s).getByRole('switch', { name: 'Notifications on this device' });
    await device.click();
    await s.page.getByText('This browser could not reach its push service. Try again later.').waitFor({ timeout: 30_000 });
    expect(calls).toEqual(['GET /api/push/key']);
    expect(await device.isChecked()).toBe(false);
    expect(await device.isDisabled()).toBe(false);
  });

  test('stays quiet in a browser without Web Push', async ({ server, member }) => {
    const s = await member('Oldbrowser');
    await s.page.addInitScript(() => delete (window as { PushManager?: unknown }).PushManager);
    await s.page.goto(`${server.url}/profile`);
    await section(s).getByText('This browser cannot show notifications.').waitFor();
    expect(await section(s).getByRole('switch').count()).toBe(0);
    // The choices still apply to the member's other devices.
    expect(await section(s).getByRole('checkbox', { name: 'Comments on my videos' }).isChecked()).toBe(true);
  });
});
