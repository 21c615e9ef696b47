import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { hasChromium, saveScreenshot } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { onServer } from '../helpers/server-reads';
import { axeViolations } from './axe';
import { waitForServiceWorker } from './feed-actions';
import { pwaTest, type Member } from './fixtures';
import { apiLogin, pushAs, seedVideo } from './notifications-steps';

// Conversations in Chromium (issue 29): a reply and a like written offline show at once and survive
// an offline reload; back online, the video's owner sees both live in the open dialog; then the
// replied-to comment's author deletes it, and the reply stays under "Comment deleted".

const test = pwaTest();
const TITLE = 'Sunset at the pier';
const CONFIRM = 'Are you sure you want to delete this comment? This action cannot be undone.';

/** The member's id, token and handle, as the server knows them. */
async function whoIs(server: ServerProcess, m: Pick<Member, 'email'>) {
  const { userId, token } = await apiLogin(server, m.email);
  const { handle } = await onServer(server, (db) => db.selectFrom('profiles').select('handle').where('id', '=', userId).executeTakeFirstOrThrow());
  return { id: userId, token, handle };
}

const commentRow = (server: ServerProcess, id: string) =>
  onServer(server, (db) => db.selectFrom('comments').select(['content', 'deleted', 'reply_count']).where('id', '=', id).executeTakeFirst());

/** The replies stored under a comment: written once, whatever the device sent again. */
const repliesOnServer = (server: ServerProcess, parentId: string) =>
  onServer(server, (db) => db.selectFrom('comments').select(['user_id', 'content', 'reply_to_user_id']).where('parent_id', '=', parentId).execute());

/** Opens the video's comments from its card in the feed. */
async function openComments(page: Page): Promise<Locator> {
  await page
    .getByRole('article', { name: TITLE })
    .getByRole('button', { name: /^Comments/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Comments' });
  await dialog.waitFor();
  return dialog;
}

/** A top-level comment's entry (its replies are inside it) and the buttons and text that are its own. */
function topComment(dialog: Locator, text: string) {
  const entry = dialog.locator('li.comment:not(.reply)').filter({ hasText: text });
  const own = entry.locator(':scope > .comment-actions');
  return {
    entry,
    like: own.getByRole('button', { name: /^(Like|Unlike) comment$/ }),
    likes: own.locator('.like-count'),
    replies: entry.getByRole('list', { name: /^Replies to/ }),
    button: (name: string | RegExp) => own.getByRole('button', { name }),
  };
}

describe.skipIf(!hasChromium)('conversations', () => {
  test('Asha replies and likes offline; Ben sees both live; Ben deletes the replied comment and the reply stays under "Comment deleted"', async ({
    server,
    member,
  }) => {
    const ben = await member('Ben');
    const asha = await member('Asha');
    const [benIs, ashaIs] = [await whoIs(server, ben), await whoIs(server, asha)];
    const videoId = await seedVideo(server, benIs.id, TITLE);
    const welcome = randomUUID();
    await pushAs(server, benIs.token, [{ name: 'addComment', args: { commentId: welcome, videoId, content: 'Thanks for watching, everyone' } }]);
    await pushAs(server, ashaIs.token, [{ name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'The colours are unreal' } }]);
    await pushAs(server, benIs.token, [{ name: 'addComment', args: { commentId: randomUUID(), videoId, content: 'Shot on an old phone' } }]);

    // Ben, the video's owner, keeps its comments open.
    await ben.page.goto(`${server.url}/home`);
    const bens = await openComments(ben.page);
    await topComment(bens, 'Shot on an old phone').entry.waitFor();

    // Asha reads the comments once online, so her device holds them; then her network goes.
    await asha.page.goto(`${server.url}/home`);
    await asha.page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await waitForServiceWorker(asha.page);
    let ashas = await openComments(asha.page);
    await topComment(ashas, 'Thanks for watching, everyone').entry.waitFor();
    await asha.context.setOffline(true);
    await asha.page.getByRole('status').filter({ hasText: "You're offline" }).waitFor();

    // She replies to Ben's welcome and likes his other comment: both show at once, waiting to sync.
    await topComment(ashas, 'Thanks for watching, everyone').button('Reply to Ben').click();
    await ashas.getByText(`Replying to @${benIs.handle}`).waitFor();
    const box = ashas.getByRole('textbox', { name: 'Add a comment' });
    await box.fill('Thank you for posting it!');
    await box.press('Enter');
    const myReply = topComment(ashas, 'Thanks for watching, everyone').replies.getByRole('listitem').filter({ hasText: 'Thank you for posting it!' });
    await myReply.waitFor();
    await myReply.getByText('Pending').waitFor();
    await myReply.getByRole('link', { name: `@${benIs.handle}` }).waitFor();
    await topComment(ashas, 'Shot on an old phone').like.click();
    const liked = topComment(ashas, 'Shot on an old phone');
    await expect.poll(() => liked.like.getAttribute('aria-pressed')).toBe('true');
    expect(await liked.likes.textContent()).toBe('1 like');
    expect(await axeViolations(asha.page)).toEqual([]);
    await saveScreenshot(asha.page, 'conversations-offline');

    // An offline reload: the reply and the like are still there, from the device.
    await asha.page.reload();
    await asha.page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    ashas = await openComments(asha.page);
    await topComment(ashas, 'Thanks for watching, everyone').replies.getByText('Thank you for posting it!').waitFor();
    expect(await topComment(ashas, 'Shot on an old phone').like.getAttribute('aria-pressed')).toBe('true');
    expect(await topComment(ashas, 'Shot on an old phone').likes.textContent()).toBe('1 like');

    // Back online: both go out, and Ben's open dialog shows them without a reload.
    await asha.context.setOffline(false);
    await expect.poll(() => asha.page.getByText(/waiting to sync/).count(), { timeout: 60_000 }).toBe(0);
    await expect
      .poll(() => repliesOnServer(server, welcome), { timeout: 30_000 })
      .toEqual([{ user_id: ashaIs.id, content: 'Thank you for posting it!', reply_to_user_id: benIs.id }]);
    const bensWelcome = topComment(bens, 'Thanks for watching, everyone');
    await expect.poll(() => topComment(bens, 'Shot on an old phone').likes.textContent(), { timeout: 30_000 }).toBe('1 like');
    expect(await topComment(bens, 'Shot on an old phone').like.getAttribute('aria-pressed')).toBe('false');
    await bensWelcome.entry.getByRole('button', { name: 'View 1 reply' }).click({ timeout: 30_000 });
    await bensWelcome.replies.getByText('Thank you for posting it!').waitFor();
    await bensWelcome.replies.getByRole('link', { name: 'Asha' }).waitFor();
    await saveScreenshot(ben.page, 'conversations-live');

    // Ben deletes his welcome, confirming: it becomes "Comment deleted" and Asha's reply stays under it.
    let asked = '';
    // signedInPage dismisses every dialog: this one Ben accepts.
    ben.page.removeAllListeners('dialog');
    ben.page.once('dialog', (d) => {
      asked = d.message();
      void d.accept();
    });
    await bensWelcome.button('Delete comment').click();
    expect(asked).toBe(CONFIRM);
    const tombstone = bens.locator('li.comment:not(.reply)').filter({ has: ben.page.getByText('Comment deleted', { exact: true }) });
    await tombstone.waitFor();
    await tombstone.getByRole('list', { name: 'Replies to a deleted comment' }).getByText('Thank you for posting it!').waitFor();
    expect(await bens.getByText('Thanks for watching, everyone').count()).toBe(0);
    await expect.poll(() => ben.page.getByText(/waiting to sync/).count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => commentRow(server, welcome), { timeout: 30_000 }).toEqual({ content: '', deleted: 1, reply_count: 1 });
    await saveScreenshot(ben.page, 'conversations-tombstone');

    // Asha's open dialog follows: the welcome's words are gone; her reply is in its thread.
    const ashasTombstone = ashas.locator('li.comment:not(.reply)').filter({ has: asha.page.getByText('Comment deleted', { exact: true }) });
    await ashasTombstone.waitFor({ timeout: 30_000 });
    expect(await ashas.getByText('Thanks for watching, everyone').count()).toBe(0);
    const collapsed = ashasTombstone.getByRole('button', { name: 'View 1 reply' });
    if (await collapsed.count()) await collapsed.click();
    await ashasTombstone.getByRole('list', { name: 'Replies to a deleted comment' }).getByText('Thank you for posting it!').waitFor();
  });
});
