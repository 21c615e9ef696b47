import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { freshTag, insertTaggedVideo } from '../helpers/hashtag-videos';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { axeViolations } from './axe';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest, type Member } from './fixtures';
import { api, apiLogin } from './notifications-steps';

// Discovery in the app (docs/pwa.md, "Discovery"): the search screen, a hashtag's page, hashtags on
// cards as links, and both offline.

const test = pwaTest();

/**
 * The creator's id and handle, and ready videos of theirs filed under their tags, as a video's first
 * ready files it (tests/helpers/hashtag-videos.ts); written straight into the server's database.
 */
async function creatorWithVideos(server: ServerProcess, m: Pick<Member, 'email'>, titles: string[]): Promise<{ id: string; handle: string }> {
  const { userId } = await apiLogin(server, m.email);
  const handle = openServerDatabase(server);
  try {
    const now = Date.now();
    // A second apart, so Recent has one order and the page's first video is the newest.
    for (const [i, title] of titles.entries()) await insertTaggedVideo({ db: handle.db, now: () => now - (titles.length - i) * 1000 }, userId, { title });
    const row = await handle.db.selectFrom('profiles').select('handle').where('id', '=', userId).executeTakeFirstOrThrow();
    return { id: userId, handle: row.handle };
  } finally {
    await handle.close();
  }
}

/** Opens the app online first, so the service worker is in place before the pages to keep are read. */
async function openApp(m: Member, server: ServerProcess): Promise<void> {
  await m.page.goto(`${server.url}/home`);
  await m.page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
  await waitForServiceWorker(m.page);
}

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search people, videos and hashtags' });

describe.skipIf(!hasChromium)('discovery: search, hashtag pages and hashtag links', () => {
  test("Asha finds Ben by his handle, opens his page and follows him; a hashtag on his card opens the tag's page, which reads offline too", async ({
    server,
    member,
    admin,
  }) => {
    const tag = freshTag('goldenhour');
    const ben = await member('Ben');
    const asha = await member('Asha');
    const benIs = await creatorWithVideos(server, ben, [`Sunset at the beach #${tag}`, `Morning run #${tag} #Fitness`]);

    // The header's Search (desktop), then his handle typed: he is found as she types.
    await openApp(asha, server);
    await asha.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await asha.page.waitForURL('**/search');
    const box = searchBox(asha.page);
    await box.waitFor();
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await box.pressSequentially(benIs.handle, { delay: 30 });
    const people = asha.page.getByRole('list', { name: `People matching ${benIs.handle}` });
    const row = people.getByRole('link', { name: new RegExp(`Ben\\s*@${benIs.handle}`) });
    await row.waitFor();
    expect(await axeViolations(asha.page)).toEqual([]);
    await saveScreenshot(asha.page, 'discovery-search-people');
    await asha.page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(asha.page, 'discovery-search-people-390');
    await asha.page.setViewportSize({ width: 1280, height: 720 });

    // His page from the result; she follows him there, and the server has it.
    await row.click();
    await asha.page.waitForURL(`**/@${benIs.handle}`);
    await asha.page.getByRole('heading', { level: 1, name: 'Ben' }).waitFor();
    await asha.page.getByRole('button', { name: 'Follow Ben', exact: true }).click();
    await asha.page.getByRole('button', { name: 'Unfollow Ben', exact: true }).waitFor();
    await expect.poll(() => asha.page.locator('.follow').getByText('Pending').count(), { timeout: 30_000 }).toBe(0);
    const { token } = await apiLogin(server, asha.email);
    expect((await api(server, token, 'GET', `/api/people/${benIs.handle}`)).json).toMatchObject({ viewer: { following: true } });

    // Back on the search screen the same results are there, and the follow shows on his row.
    await asha.page.goBack();
    await asha.page.waitForURL(/\/search\?q=/);
    expect(await searchBox(asha.page).inputValue()).toBe(benIs.handle);
    await people.getByRole('button', { name: 'Unfollow Ben', exact: true }).waitFor();

    // The Videos and Hashtags tabs search the same way.
    await searchBox(asha.page).fill('sunset');
    await asha.page.getByRole('tab', { name: 'Videos' }).click();
    await asha.page
      .getByRole('list', { name: 'Videos matching sunset' })
      .getByRole('link', { name: /Sunset at the beach/ })
      .waitFor();
    await saveScreenshot(asha.page, 'discovery-search-videos');
    await searchBox(asha.page).fill(`#${tag.slice(0, 12)}`);
    await asha.page.getByRole('tab', { name: 'Hashtags' }).click();
    await asha.page.getByRole('link', { name: `#${tag} · 2 videos` }).waitFor();

    // His card in her Following tab: the hashtag in its title is a link to the tag's page.
    await asha.page.goto(`${server.url}/home`);
    await asha.page.getByRole('tab', { name: 'Following' }).click();
    const card = asha.page.getByRole('article', { name: `Sunset at the beach #${tag}` });
    await card.waitFor({ timeout: 30_000 });
    await card.getByRole('link', { name: `#${tag}` }).click();
    await asha.page.waitForURL(`**/tag/${tag}`);
    await asha.page.getByRole('heading', { level: 1, name: `#${tag}` }).waitFor();
    await asha.page.getByText('2 videos', { exact: true }).waitFor();
    const grid = asha.page.getByRole('list', { name: 'Videos' });
    await grid.getByRole('link', { name: /Sunset at the beach/ }).waitFor();
    expect(await grid.getByRole('link').allTextContents()).toEqual([`Morning run #${tag} #Fitness`, `Sunset at the beach #${tag}`]);
    await asha.page.getByRole('tab', { name: 'Top' }).click();
    await grid.getByRole('link', { name: /Morning run/ }).waitFor();
    expect(await axeViolations(asha.page)).toEqual([]);
    await saveScreenshot(asha.page, 'discovery-hashtag-page');
    await asha.page.setViewportSize({ width: 390, height: 844 });
    await saveScreenshot(asha.page, 'discovery-hashtag-page-390');

    // A tile opens the video in the full-screen viewer over the tag's list; its other tag is a link too (filed in lower case).
    await grid.getByRole('link', { name: /Morning run/ }).click();
    await asha.page.waitForURL((u) => u.pathname.startsWith('/watch/') && u.searchParams.get('list') === `tag:${tag}:top`);
    const shown = asha.page.locator('article.viewer-slide[data-active="true"]');
    await shown.getByRole('link', { name: '#Fitness' }).waitFor();
    expect(await shown.getByRole('link', { name: '#Fitness' }).getAttribute('href')).toBe('/tag/fitness');
    await asha.page.keyboard.press('Escape');
    await asha.page.waitForURL(`**/tag/${tag}`);

    // Offline: the tag's page seen once reads from the service worker's copy; search says it needs
    // a connection and offers her recent searches (the one she opened a result from).
    await asha.context.setOffline(true);
    await asha.page.reload();
    await asha.page.getByRole('heading', { level: 1, name: `#${tag}` }).waitFor();
    await grid.getByRole('link', { name: /Sunset at the beach/ }).waitFor();
    await asha.page.getByRole('navigation', { name: 'Bottom' }).getByRole('link', { name: 'Search' }).click();
    await asha.page.getByText('Search needs a connection.', { exact: false }).waitFor();
    const recent = asha.page.getByRole('list', { name: 'Recent searches' });
    await recent.getByRole('button', { name: benIs.handle, exact: true }).waitFor();
    expect(await axeViolations(asha.page)).toEqual([]);
    await saveScreenshot(asha.page, 'discovery-search-offline-390');

    // Hidden by an admin, the tag's page says so (the server's 404), and so does an address that is
    // no hashtag at all (all digits is a rank, not a topic).
    await asha.context.setOffline(false);
    expect((await api(server, admin.token, 'POST', `/api/admin/hashtags/${tag}/hide`)).status).toBe(200);
    await asha.page.goto(`${server.url}/tag/${tag}`);
    await asha.page.getByText('This hashtag is not available.').waitFor();
    await asha.page.goto(`${server.url}/tag/2024`);
    await asha.page.getByText('This hashtag is not available.').waitFor();
  });
});
