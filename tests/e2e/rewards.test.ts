import { testHandle } from '../helpers/test-handle';
import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { rebuildScores } from '#server/rewards/recompute';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';
import { pwaTest } from './fixtures';
import { waitForServiceWorker } from './feed-actions';
import { PASSWORD, logInThroughUi, signUpVerified, uniqueEmail } from './member-session';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Writes a whole scoring period straight into the running server's SQLite file (WAL lets both
 * write): 21 creators ahead of the member, 30 fans, prizes, the next date and a past distribution.
 */
async function seed(server: ServerProcess, memberEmail: string, adminEmail: string): Promise<string> {
  const { db, close } = openServerDatabase(server);
  try {
    const base = Date.now() - 3_600_000;
    const member = await db.selectFrom('profiles').select('id').where('email', '=', memberEmail).executeTakeFirstOrThrow();
    await db.updateTable('profiles').set({ is_admin: 1 }).where('email', '=', adminEmail).execute();
    const profile = (id: string, name: string) => ({
      id,
      email: `${id}@seed.test`,
      name,
      handle: testHandle(id),
      is_admin: 0,
      is_active: 1,
      account_status: 'active',
      email_verified_at: base,
      created_at: base,
      updated_at: base,
    });
    const video = (id: string, userId: string) => ({
      id,
      user_id: userId,
      title: id,
      description: '',
      file_key: `${userId}/${id}.mp4`,
      mime_type: 'video/mp4',
      size_bytes: 1,
      duration_ms: 10_000,
      sha256: 'x',
      poster_key: null,
      created_at: base,
      likes_count: 0,
      comments_count: 0,
      shares_count: 0,
      views_count: 0,
    });
    const creators = [...Array(21).keys()].map((i) => `creator-${pad(i)}`);
    const fans = [...Array(30).keys()].map((k) => `fan-${pad(k)}`);
    await db
      .insertInto('profiles')
      .values([...creators.map((id, i) => profile(id, `Creator ${pad(i)}`)), ...fans.map((id, k) => profile(id, `Fan ${pad(k)}`))])
      .execute();
    const owners = [...creators, member.id];
    await db
      .insertInto('videos')
      .values(owners.map((o) => video(`video-${o}`, o)))
      .execute();
    // Creator i is liked by fans 0..29-i (30 - i points); the member by fans 0 and 1 (2 points, rank 22).
    const likes = [];
    for (const [i, o] of owners.entries()) {
      const likers = o === member.id ? 2 : 30 - i;
      for (let k = 0; k < likers; k++) likes.push({ video_id: `video-${o}`, user_id: fans[k]!, created_at: base + i * 1000 + k });
    }
    await db.insertInto('likes').values(likes).execute();
    // The member watched one video: 1 viewer point, behind all 30 fans.
    await db
      .insertInto('views')
      .values({ video_id: 'video-creator-00', user_id: member.id, watched_ms: 5000, created_at: base + 60_000 })
      .execute();
    await db
      .insertInto('prizes')
      .values([
        { board: 'best_user', rank: 1, amount_rupees: 5000 },
        { board: 'best_user', rank: 2, amount_rupees: 250 },
        { board: 'best_viewer', rank: 1, amount_rupees: 100 },
      ])
      .execute();
    await db
      .insertInto('settings')
      .values({ key: 'distribution_date', value: JSON.stringify('2026-12-25'), updated_at: base })
      .execute();
    await db
      .insertInto('distributions')
      .values({ id: 'old-distribution', period_start: 0, created_at: base - 1000, created_by: 'someone' })
      .execute();
    await db
      .insertInto('distribution_winners')
      .values([
        { distribution_id: 'old-distribution', board: 'best_user', rank: 1, user_id: 'gone-1', user_name: 'Old Champion', points: 40, prize_rupees: 900 },
        { distribution_id: 'old-distribution', board: 'best_viewer', rank: 1, user_id: 'gone-2', user_name: 'Old Watcher', points: 12, prize_rupees: 90 },
      ])
      .execute();
    await rebuildScores(db);
    return member.id;
  } finally {
    await close();
  }
}

async function apiToken(server: ServerProcess, email: string): Promise<string> {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { access_token: string }).access_token;
}

async function rowsOf(page: Page, board: string): Promise<string[][]> {
  const table = page.getByRole('table', { name: board });
  return table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
}

const test = pwaTest();

describe.skipIf(!hasChromium)('the rewards page in Chromium', () => {
  const memberEmail = uniqueEmail('rewards');
  const adminEmail = uniqueEmail('rewards-admin');
  let memberId = '';

  test.beforeAll(async ({ server }) => {
    await signUpVerified(server, 'Mia Member', memberEmail);
    await signUpVerified(server, 'Ada Admin', adminEmail);
    memberId = await seed(server, memberEmail, adminEmail);
  });

  test('shows ranks, prizes, the member’s own rank, the next date and the last winners; offline the last standings with their time', async ({
    server,
    context,
  }) => {
    const page = await context.newPage();
    await logInThroughUi(page, server, memberEmail);
    await page.goto(`${server.url}/rewards`);
    await page.getByRole('heading', { level: 1, name: 'Rewards' }).waitFor();
    await page.getByRole('table', { name: 'Best Users' }).waitFor();

    expect(await page.getByTestId('distribution-date').textContent()).toBe('December 25, 2026');
    const users = await rowsOf(page, 'Best Users');
    expect(users).toHaveLength(20);
    expect(users[0]).toEqual(['#1', 'Creator 00', '30', '₹5,000']);
    expect(users[1]).toEqual(['#2', 'Creator 01', '29', '₹250']);
    expect(users[19]).toEqual(['#20', 'Creator 19', '11', '₹0']);
    // Fans 0 and 1 both have 22 points; fan 0 reached it first.
    expect(await rowsOf(page, 'Best Viewers')).toEqual([
      ['#1', 'Fan 00', '22', '₹100'],
      ['#2', 'Fan 01', '22', '₹0'],
      ['#3', 'Fan 02', '21', '₹0'],
    ]);
    const standing = page.getByRole('region', { name: 'Your standing' });
    await expect.poll(() => standing.textContent()).toContain('Rank #22 · 2 points');
    expect(await standing.textContent()).toContain('Rank #31 · 1 point');
    const winners = page.getByRole('region', { name: 'Last winners' });
    expect(await winners.textContent()).toContain('Old Champion');
    expect(await winners.textContent()).toContain('₹900');
    expect(await winners.textContent()).toContain('Old Watcher');
    await saveScreenshot(page, 'rewards-standings');

    // Another member likes the member's video: the open page follows without a reload.
    const adminToken = await apiToken(server, adminEmail);
    const pushed = await fetch(`${server.url}/api/sync/push`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: randomUUID(), mutations: [{ id: 1, name: 'like', args: { videoId: `video-${memberId}` } }] }),
    });
    expect(pushed.status).toBe(200);
    await expect.poll(() => standing.textContent(), { timeout: 40_000, interval: 500 }).toContain('Rank #22 · 3 points');

    // The offline reload below needs the service worker in control of the page: it installs after
    // the page's first load, which a fast login (no production scrypt) no longer leaves it time for.
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.getByText(/You are offline\. Standings as of /).waitFor();
    expect((await rowsOf(page, 'Best Users'))[0]).toEqual(['#1', 'Creator 00', '30', '₹5,000']);
    // A reload offline renders from the local store alone (service worker shell + IndexedDB snapshot).
    await page.reload();
    await page.getByText(/You are offline\. Standings as of /).waitFor();
    expect((await rowsOf(page, 'Best Users'))[0]).toEqual(['#1', 'Creator 00', '30', '₹5,000']);
    expect(await page.getByRole('region', { name: 'Your standing' }).textContent()).toContain('Rank #22 · 3 points');
    await saveScreenshot(page, 'rewards-offline');
    await context.setOffline(false);
  });

  test('an admin records a distribution from the Rewards tab; members then see the empty texts and the new winners', async ({ server, browser, context }) => {
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await admin.goto(`${server.url}/admin/login`);
    await admin.getByLabel('Email').fill(adminEmail);
    await admin.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await admin.getByRole('button', { name: 'Login' }).click();
    await admin.waitForURL('**/admin');
    await admin.getByRole('tab', { name: 'Rewards' }).click();
    const dialogs: string[] = [];
    admin.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    await admin.getByRole('button', { name: 'Record distribution' }).click();
    await admin.getByText('Distribution recorded').waitFor();
    expect(dialogs[0]).toContain('Record a distribution now?');
    await saveScreenshot(admin, 'rewards-admin-recorded');
    // A second click finds nobody with points in the new period: refused, the winners stay.
    await admin.getByRole('button', { name: 'Record distribution' }).click();
    await admin.getByText('Nobody has points in this period yet, so there is nothing to distribute.').waitFor();
    expect(dialogs).toHaveLength(2);
    await adminContext.close();

    const token = await apiToken(server, adminEmail);
    const list = (await (await fetch(`${server.url}/api/admin/rewards/distributions`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      items: Array<{ best_users: Array<{ user_name: string }> }>;
    };
    expect(list.items).toHaveLength(2);
    expect(list.items[0]!.best_users[0]!.user_name).toBe('Creator 00');

    const page = await context.newPage();
    await logInThroughUi(page, server, memberEmail);
    await page.goto(`${server.url}/rewards`);
    await page.getByText('No user data yet. Start uploading videos to appear here!').waitFor();
    await page.getByText('No viewer data yet. Start interacting with videos!').waitFor();
    const winners = page.getByRole('region', { name: 'Last winners' });
    await expect.poll(() => winners.textContent()).toContain('Creator 00');
    expect(await winners.textContent()).toContain('₹5,000');
    expect(await winners.textContent()).not.toContain('Old Champion');
    expect(await page.getByRole('region', { name: 'Your standing' }).textContent()).toContain('Not ranked yet');
    await saveScreenshot(page, 'rewards-after-distribution');
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL('**/home');
  });
});
