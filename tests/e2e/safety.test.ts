import { describe, expect } from 'vitest';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import { acceptNextDialog } from '../helpers/browser-dialogs';
import { signedInPage } from '../helpers/signed-in-page';
import type { ServerProcess } from '../helpers/server-process';
import { onServer } from '../helpers/server-reads';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest, type Member } from './fixtures';
import { PASSWORD } from './member-session';
import { apiLogin, bellLabel, seedVideo } from './notifications-steps';
import { toastText } from './toasts';

// Safety in Chromium (issue 30, docs/moderation.md): a member reports a video from its card, choosing
// a reason, and blocks its uploader from the offer that follows; an admin removes the video from the
// Reports tab; the reporter's bell tells her what happened, live.

const test = pwaTest();
const TITLE = 'A clip that breaks the rules';

/** The member's id and handle, as the server knows them. */
async function whoIs(server: ServerProcess, m: Pick<Member, 'email'>) {
  const { userId } = await apiLogin(server, m.email);
  const { handle } = await onServer(server, (db) => db.selectFrom('profiles').select('handle').where('id', '=', userId).executeTakeFirstOrThrow());
  return { id: userId, handle };
}

describe.skipIf(!hasChromium)('report, block, and the moderation queue', () => {
  test("Asha reports Ben's video and blocks him; an admin removes it from the Reports tab; Asha's bell tells her", async ({
    server,
    browser,
    member,
    admin,
  }) => {
    const ben = await member('Ben');
    const asha = await member('Asha');
    const [benIs, ashaIs] = [await whoIs(server, ben), await whoIs(server, asha)];
    const videoId = await seedVideo(server, benIs.id, TITLE);

    // Asha reports the video from its card, choosing a reason.
    await asha.page.goto(`${server.url}/home`);
    await asha.page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await waitForServiceWorker(asha.page);
    const card = asha.page.getByRole('article', { name: TITLE });
    await card.getByRole('button', { name: 'Report video' }).click();
    const dialog = asha.page.getByRole('dialog', { name: 'Report video' });
    await dialog.waitFor();
    const send = dialog.getByRole('button', { name: 'Send report' });
    expect(await send.isDisabled()).toBe(true);
    await dialog.getByLabel('Spam or scam').check();
    await dialog.getByLabel('Add a note (optional)').fill('Links to a fake giveaway');
    await saveScreenshot(asha.page, 'safety-report-dialog');
    await send.click();

    // The thanks offers to block Ben; she accepts the confirmation.
    const sent = asha.page.getByRole('dialog', { name: 'Report sent' });
    await sent.getByText(/^Thanks for reporting/).waitFor();
    const confirms = acceptNextDialog(asha.page);
    await sent.getByRole('button', { name: `Block @${benIs.handle}` }).click();
    await sent.waitFor({ state: 'detached' });
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toMatch(new RegExp(`^Block @${benIs.handle}\\?`));
    // The block applies on the device at once: Ben's video leaves her feed.
    await card.waitFor({ state: 'detached' });

    // Both reach the server: one open report with her reason and note, and the block.
    const reports = () =>
      onServer(server, (db) => db.selectFrom('reports').select(['reporter_id', 'target_type', 'target_id', 'reason', 'note', 'state']).execute());
    await expect
      .poll(reports, { timeout: 30_000 })
      .toEqual([{ reporter_id: ashaIs.id, target_type: 'video', target_id: videoId, reason: 'spam', note: 'Links to a fake giveaway', state: 'open' }]);
    const blocks = () => onServer(server, (db) => db.selectFrom('blocks').select(['blocker_id', 'blocked_id']).execute());
    await expect.poll(blocks, { timeout: 30_000 }).toEqual([{ blocker_id: ashaIs.id, blocked_id: benIs.id }]);
    expect(await bellLabel(asha.page)).toBe('Notifications');

    // The admin opens the Reports tab (its label counts the open entries) and removes the video.
    const { page: adminPage, close } = await signedInPage(browser, server.url, admin.email, PASSWORD);
    try {
      await adminPage.goto(`${server.url}/admin`);
      await adminPage.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
      await adminPage.getByRole('tab', { name: 'Reports (1)' }).click();
      // The entry shows the evidence: the video as reported, the reason counted, her note.
      const entry = adminPage.getByRole('region', { name: 'Reports' }).getByRole('article', { name: TITLE });
      await entry.getByRole('heading', { name: TITLE }).waitFor();
      await entry.getByText(`Video by Ben (@${benIs.handle})`).waitFor();
      await entry.getByRole('list', { name: 'Reasons' }).getByText('Spam or scam: 1').waitFor();
      await entry.getByRole('list', { name: 'Notes from reporters' }).getByText('Links to a fake giveaway').waitFor();
      await saveScreenshot(adminPage, 'safety-reports-tab');
      const adminConfirms = acceptNextDialog(adminPage);
      await entry.getByRole('button', { name: 'Remove', exact: true }).click();
      await toastText(adminPage, 'Removed, and the reports closed');
      expect(adminConfirms).toEqual(['Delete this video? This action cannot be undone. The reporter is told the outcome.']);
      await entry.waitFor({ state: 'detached' });
      await adminPage.getByRole('tab', { name: 'Reports (0)' }).waitFor();
      await adminPage.getByText('No open reports').waitFor();
    } finally {
      await close();
    }
    expect(await onServer(server, (db) => db.selectFrom('videos').select('id').where('id', '=', videoId).executeTakeFirst())).toBeUndefined();
    expect((await reports()).map((r) => r.state)).toEqual(['actioned']);

    // Asha's bell says what happened, live, without saying who decided.
    await expect.poll(() => bellLabel(asha.page), { timeout: 30_000 }).toBe('Notifications, 1 unread');
    await asha.page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    const told = asha.page.getByRole('dialog', { name: 'Notifications' }).getByRole('list', { name: 'Notifications' });
    await told.getByText('We removed the video you reported').waitFor();
    expect(await told.textContent()).not.toContain(admin.name);
    await saveScreenshot(asha.page, 'safety-report-outcome');
    // Nothing of hers is left stuck in the queue (a refused block or report would stay or toast).
    await expect.poll(() => asha.page.getByText(/waiting to sync/).count(), { timeout: 30_000 }).toBe(0);
  });
});
