import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { axeViolations } from './axe';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest, type Member } from './fixtures';
import { api, apiLogin, bellLabel, seedVideo, serverNotifications } from './notifications-steps';
import { toastText } from './toasts';
import { signUpVerified, uniqueEmail } from './member-session';

// People (docs/pwa.md, "People"): a creator page at /@handle, Follow offline, the Following tab.

const test = pwaTest();

/** A member's id and handle as the server holds them (every member gets a handle at sign-up). */
async function whoIs(server: ServerProcess, m: Pick<Member, 'email'>): Promise<{ id: string; handle: string }> {
  const { userId } = await apiLogin(server, m.email);
  const db = openServerDatabase(server);
  try {
    const row = await db.db.selectFrom('profiles').select('handle').where('id', '=', userId).executeTakeFirstOrThrow();
    return { id: userId, handle: row.handle };
  } finally {
    await db.close();
  }
}

/** The number under a label of the creator page's counts ("Followers"). */
const count = (page: Page, which: 'followers' | 'following' | 'videos') => page.locator(`.creator-counts dd[data-count="${which}"]`).textContent();

/** Opens the app once online, so the service worker is in place before the page to keep is read. */
async function openApp(m: Member, server: ServerProcess): Promise<void> {
  await m.page.goto(`${server.url}/home`);
  await m.page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
  await waitForServiceWorker(m.page);
}

describe.skipIf(!hasChromium)("a creator's page, Follow and the Following tab", () => {
  test('Asha follows Ben from his page while offline; back online, Ben sees the follower and the notification live, and her Following tab shows his video', async ({
    server,
    member,
  }) => {
    const ben = await member('Ben');
    const asha = await member('Asha');
    const benIs = await whoIs(server, ben);
    await seedVideo(server, benIs.id, 'Ben on the beach');

    // Ben looks at his own page: no Follow button, a way to edit his profile, nobody following yet.
    await openApp(ben, server);
    await ben.page.goto(`${server.url}/@${benIs.handle}`);
    await ben.page.getByRole('heading', { level: 1, name: 'Ben' }).waitFor();
    await ben.page.getByRole('link', { name: 'Edit profile' }).waitFor();
    expect(await count(ben.page, 'followers')).toBe('0');

    // Asha opens Ben's page online once: name, handle, counts, his video.
    await openApp(asha, server);
    await asha.page.goto(`${server.url}/@${benIs.handle}`);
    await asha.page.getByRole('heading', { level: 1, name: 'Ben' }).waitFor();
    await asha.page.getByText(`@${benIs.handle}`, { exact: true }).waitFor();
    await asha.page.getByRole('link', { name: 'Ben on the beach' }).waitFor();
    expect(await count(asha.page, 'videos')).toBe('1');
    expect(await axeViolations(asha.page)).toEqual([]);

    // The service worker kept what the page read, for offline.
    const kept = () => asha.page.evaluate(async () => (await (await caches.open('vidi-people')).keys()).map((r) => new URL(r.url).pathname));
    await expect.poll(kept).toEqual(expect.arrayContaining([`/api/people/${benIs.handle}`, `/api/people/${benIs.handle}/videos`]));

    // Offline: Follow shows at once, counted, and pending.
    await asha.context.setOffline(true);
    await asha.page.getByRole('button', { name: 'Follow Ben', exact: true }).click();
    const unfollow = asha.page.getByRole('button', { name: 'Unfollow Ben', exact: true });
    await unfollow.waitFor();
    expect(await unfollow.textContent()).toBe('Following');
    expect(await count(asha.page, 'followers')).toBe('1');
    await asha.page.locator('.follow').getByText('Pending').waitFor();
    await saveScreenshot(asha.page, 'people-follow-offline');
    await asha.page.setViewportSize({ width: 360, height: 740 });
    await saveScreenshot(asha.page, 'people-follow-offline-360');
    await asha.page.setViewportSize({ width: 1280, height: 720 });

    // An offline reload: the page from the service worker's copy, the follow from the device.
    await asha.page.reload();
    await asha.page.getByRole('heading', { level: 1, name: 'Ben' }).waitFor();
    await unfollow.waitFor();
    expect(await count(asha.page, 'followers')).toBe('1');
    await asha.page.getByRole('link', { name: 'Ben on the beach' }).waitFor();

    // Back online: the follow goes out once; Ben's open page counts it and his bell says so, live.
    await asha.context.setOffline(false);
    await expect.poll(() => asha.page.locator('.follow').getByText('Pending').count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => count(ben.page, 'followers'), { timeout: 30_000 }).toBe('1');
    await expect.poll(() => bellLabel(ben.page), { timeout: 30_000 }).toBe('Notifications, 1 unread');
    await ben.page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await ben.page.getByRole('list', { name: 'Notifications' }).getByText('Asha started following you').waitFor();
    await ben.page.keyboard.press('Escape');
    const asSeen = await api(server, (await apiLogin(server, asha.email)).token, 'GET', `/api/people/${benIs.handle}`);
    expect(asSeen.json).toMatchObject({ followers_count: 1, viewer: { following: true } });

    // Asha's Following tab: Ben's video, and his name links back to his page.
    await asha.page.goto(`${server.url}/home`);
    await asha.page.getByRole('tab', { name: 'Following' }).click();
    const card = asha.page.getByRole('article', { name: 'Ben on the beach' });
    await card.waitFor({ timeout: 30_000 });
    expect(await axeViolations(asha.page)).toEqual([]);
    await saveScreenshot(asha.page, 'people-following-tab');

    // The Following page seen once reads offline too, and so does the page its name links to.
    await asha.context.setOffline(true);
    await asha.page.reload();
    await asha.page.getByRole('tab', { name: 'Following' }).click();
    await card.waitFor();
    await card.getByRole('link', { name: 'Ben', exact: true }).click();
    await asha.page.waitForURL(`**/@${benIs.handle}`);
    await asha.page.getByRole('heading', { level: 1, name: 'Ben' }).waitFor();
    await asha.page.getByRole('button', { name: 'Unfollow Ben', exact: true }).waitFor();
  });

  test('follow then unfollow offline: after reconnecting nobody follows, the count is unchanged and no notification is left', async ({ server, member }) => {
    const dev = await member('Dev');
    const cara = await member('Cara');
    const devIs = await whoIs(server, dev);

    await openApp(cara, server);
    await cara.page.goto(`${server.url}/@${devIs.handle}`);
    await cara.page.getByRole('heading', { level: 1, name: 'Dev' }).waitFor();
    expect(await count(cara.page, 'followers')).toBe('0');

    await cara.context.setOffline(true);
    await cara.page.getByRole('button', { name: 'Follow Dev', exact: true }).click();
    await cara.page.getByRole('button', { name: 'Unfollow Dev', exact: true }).click();
    const follow = cara.page.getByRole('button', { name: 'Follow Dev', exact: true });
    await follow.waitFor();
    expect(await count(cara.page, 'followers')).toBe('0');

    await cara.context.setOffline(false);
    await expect.poll(() => cara.page.getByText(/waiting to sync/).count(), { timeout: 30_000 }).toBe(0);
    await cara.page.reload();
    await cara.page.getByRole('heading', { level: 1, name: 'Dev' }).waitFor();
    await follow.waitFor();
    expect(await count(cara.page, 'followers')).toBe('0');
    const seen = await api(server, (await apiLogin(server, cara.email)).token, 'GET', `/api/people/${devIs.handle}`);
    expect(seen.json).toMatchObject({ followers_count: 0, following_count: 0, viewer: { following: false } });
    expect((await serverNotifications(server, devIs.id)).filter((n) => n.kind === 'follow')).toEqual([]);
  });

  test('the Following tab offers who to follow while nobody is followed, and a Follow there fills the tab', async ({ server, member }) => {
    const eve = await member('Eve');
    const fay = await member('Fay');
    const eveIs = await whoIs(server, eve);
    await seedVideo(server, eveIs.id, 'Eve at the market');

    await openApp(fay, server);
    await fay.page.getByRole('tab', { name: 'Following' }).click();
    const suggestions = fay.page.getByRole('region', { name: 'Who to follow' });
    await suggestions.getByRole('link', { name: /Eve/ }).waitFor();
    expect(await axeViolations(fay.page)).toEqual([]);
    await suggestions.getByRole('button', { name: 'Follow Eve', exact: true }).click();
    await fay.page.getByRole('article', { name: 'Eve at the market' }).waitFor({ timeout: 30_000 });
  });

  test("/profile's Handle: checked as it is typed, saved, and a taken one sent offline is refused and rolled back", async ({ server, member }) => {
    const gil = await member('Gil');
    const hal = await member('Hal');
    const gilIs = await whoIs(server, gil);
    const halIs = await whoIs(server, hal);
    const ivy = { email: uniqueEmail('ivy') };
    await signUpVerified(server, 'Ivy', ivy.email);
    const ivyIs = await whoIs(server, ivy);

    await openApp(hal, server);
    await hal.page.goto(`${server.url}/profile`);
    const field = hal.page.getByRole('textbox', { name: 'Handle' });
    await field.waitFor();
    expect(await field.inputValue()).toBe(halIs.handle);
    await field.fill('9lives');
    await hal.page.getByText('A handle starts with a letter.').waitFor();
    await field.fill(`@${gilIs.handle.toUpperCase()}`);
    await hal.page.getByText('That handle is taken.').waitFor();
    expect(await hal.page.getByRole('button', { name: 'Save Handle' }).isDisabled()).toBe(true);
    expect(await axeViolations(hal.page)).toEqual([]);

    await field.fill('hal.on.air');
    await hal.page.getByRole('button', { name: 'Save Handle' }).click();
    await hal.page.getByRole('link', { name: '/@hal.on.air' }).waitFor();
    await expect.poll(async () => (await whoIs(server, hal)).handle, { timeout: 30_000 }).toBe('hal.on.air');

    // Offline nothing can be checked against the others: the server refuses it, and the device rolls back.
    await hal.context.setOffline(true);
    await field.fill(ivyIs.handle);
    await hal.page.getByRole('button', { name: 'Save Handle' }).click();
    await hal.page.getByRole('link', { name: `/@${ivyIs.handle}` }).waitFor();
    await hal.context.setOffline(false);
    await toastText(hal.page, 'That handle is taken.');
    await expect.poll(() => field.inputValue(), { timeout: 30_000 }).toBe('hal.on.air');
    await hal.page.getByRole('link', { name: '/@hal.on.air' }).click();
    await hal.page.getByRole('heading', { level: 1, name: 'Hal' }).waitFor();
    expect((await whoIs(server, hal)).handle).toBe('hal.on.air');
  });
});
