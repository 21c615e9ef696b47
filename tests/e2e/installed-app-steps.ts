import { expect } from 'vitest';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { insertVideo } from '#tests/helpers/videos';
import { openServerDatabase, type ServerProcess } from '../helpers/server-process';

// Steps of the installed-app tests (docs/pwa.md, "Sync while closed", "Share into Vidi").

/** A creator's video straight in the database (the feed's first pull brings it), and its member's id. */
export async function seedVideo(server: ServerProcess, creatorEmail: string, title: string): Promise<string> {
  const { db, close } = openServerDatabase(server);
  try {
    const creator = await db.selectFrom('profiles').select('id').where('email', '=', creatorEmail).executeTakeFirstOrThrow();
    return await insertVideo({ db }, creator.id, { title });
  } finally {
    await close();
  }
}

/** Removes a video on the server behind every client's back (as if it was deleted meanwhile). */
export async function deleteVideo(server: ServerProcess, videoId: string): Promise<void> {
  const { db, close } = openServerDatabase(server);
  try {
    await db.deleteFrom('videos').where('id', '=', videoId).execute();
  } finally {
    await close();
  }
}

/** What the server holds of one member's like and comments on a video, and their device's last mutation id. */
export async function serverState(server: ServerProcess, email: string, videoId: string) {
  const { db, close } = openServerDatabase(server);
  try {
    const user = await db.selectFrom('profiles').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const video = await db.selectFrom('videos').select(['likes_count', 'comments_count']).where('id', '=', videoId).executeTakeFirst();
    const comments = await db.selectFrom('comments').select('content').where('video_id', '=', videoId).where('user_id', '=', user.id).execute();
    const clients = await db.selectFrom('sync_clients').select('last_mutation_id').where('user_id', '=', user.id).execute();
    return {
      likes: video?.likes_count ?? null,
      commentsCount: video?.comments_count ?? null,
      comments: comments.map((c) => c.content),
      lastIds: clients.map((c) => c.last_mutation_id),
    };
  } finally {
    await close();
  }
}

/** Likes a card and comments on it while offline: both show as Pending. */
export async function likeAndCommentOffline(page: Page, title: string, comment: string): Promise<void> {
  const card = page.getByRole('article', { name: title });
  await card.getByRole('button', { name: /^Like/ }).click();
  await expect.poll(() => card.getByRole('button', { name: /^Like/ }).getAttribute('aria-label')).toBe('Like, 1 like');
  await card.getByRole('button', { name: /^Comments/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Comments' });
  await dialog.getByRole('textbox', { name: 'Add a comment' }).fill(comment);
  await dialog.getByRole('textbox', { name: 'Add a comment' }).press('Enter');
  await dialog.getByText(comment).waitFor();
  await dialog.getByText('Pending').waitFor();
  await page.keyboard.press('Escape');
  await card.getByText('Pending').first().waitFor();
}

/**
 * Fires the service worker's Background Sync event as the browser does when the network returns
 * (`ServiceWorker.dispatchSyncEvent`, Chrome DevTools Protocol). A CDP session is opened on a page,
 * and the test needs no page of the app open while the worker runs: an about:blank page of the same
 * browser context serves (it loads nothing of the app and is no client of the worker).
 */
export class SyncTrigger {
  private registrationId: string | null = null;
  private constructor(
    private readonly cdp: CDPSession,
    private readonly origin: string,
  ) {}

  static async open(context: BrowserContext, origin: string): Promise<SyncTrigger> {
    const blank = await context.newPage();
    const cdp = await context.newCDPSession(blank);
    const trigger = new SyncTrigger(cdp, origin);
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => !r.isDeleted && r.scopeURL.startsWith(origin));
      if (mine) trigger.registrationId = mine.registrationId;
    });
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => trigger.registrationId).not.toBeNull();
    return trigger;
  }

  async fire(): Promise<void> {
    await this.cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: this.origin,
      registrationId: this.registrationId!,
      tag: 'vidi-outbox',
      lastChance: false,
    });
  }
}
