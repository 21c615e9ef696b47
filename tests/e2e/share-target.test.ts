import { describe, expect } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium } from '../helpers/browser';
import type { ServerProcess } from '../helpers/server-process';
import { mp4Faststart } from '../fixtures/videos';
import { VIDEO_TITLE_MAX } from '#sync/protocol/limits';
import { pwaTest } from './fixtures';
import { logInThroughUi, signUpVerified, uniqueEmail } from './member-session';
import { waitForServiceWorker } from './feed-actions';
import { toastText } from './toasts';

/**
 * Shares a file into Vidi as the operating system does: a navigation that POSTs a multipart form to
 * the manifest's share_target action, from a page the service worker controls.
 */
async function shareIntoVidi(page: Page, file: string, title?: string): Promise<void> {
  await page.evaluate((sharedTitle) => {
    const form = Object.assign(document.createElement('form'), {
      method: 'post',
      enctype: 'multipart/form-data',
      action: '/share-target',
      id: 'os-share',
      hidden: true,
    });
    form.append(Object.assign(document.createElement('input'), { type: 'file', name: 'video', id: 'os-share-file' }));
    if (sharedTitle) form.append(Object.assign(document.createElement('input'), { type: 'hidden', name: 'title', value: sharedTitle }));
    document.body.append(form);
  }, title);
  await page.setInputFiles('#os-share-file', file);
  await Promise.all([
    page.waitForURL(/\/home\?shared=1$/, { waitUntil: 'commit' }),
    page.evaluate(() => (document.getElementById('os-share') as HTMLFormElement).submit()),
  ]);
}

/** What the worker keeps of the last share (client/sync/uploads/shared-video.ts), or null. */
function keptShare(page: Page): Promise<{ file: File | null } | null> {
  return page.evaluate(async () => {
    // Opening a database that does not exist would make it, empty, before the app does.
    if (!(await indexedDB.databases()).some((d) => d.name === 'vidi-shared')) return null;
    return new Promise((resolve, reject) => {
      const open = indexedDB.open('vidi-shared');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const get = open.result.transaction('share').objectStore('share').get('latest');
        get.onsuccess = () => resolve((get.result as { file: File | null } | undefined) ?? null);
        get.onerror = () => reject(get.error);
      };
    });
  });
}

const test = pwaTest();

// docs/pwa.md, "Share into Vidi".
describe.skipIf(!hasChromium)('sharing a video into Vidi', () => {
  let video: string;
  let notes: string;
  let oversized: string;

  test.beforeAll(async () => {
    video = await mp4Faststart();
    notes = join(mkdtempSync(join(tmpdir(), 'vidi-share-')), 'notes.txt');
    writeFileSync(notes, 'Holiday notes, not a video.\n');
    // Just over the 120 MB limit, as a phone's long recording is: a sparse file costs no disk.
    oversized = join(mkdtempSync(join(tmpdir(), 'vidi-share-')), 'long-recording.mp4');
    writeFileSync(oversized, '');
    truncateSync(oversized, 120 * 1024 * 1024 + 1);
  });
  async function signedInWithWorker(server: ServerProcess, context: BrowserContext, name: string) {
    const email = uniqueEmail('sharer');
    await signUpVerified(server, name, email);
    const page = await context.newPage();
    await logInThroughUi(page, server, email);
    await waitForServiceWorker(page);
    return { email, context, page };
  }

  test('opens the upload dialog with the shared video chosen, and uploads it', async ({ server, context }) => {
    const { page } = await signedInWithWorker(server, context, 'Sam Sharer');
    await shareIntoVidi(page, video, 'From my gallery');
    const dialog = page.getByRole('dialog', { name: 'Upload Video' });
    await dialog.getByText(new RegExp(`^${basename(video).replace('.', '\\.')} \\(`)).waitFor();
    // The share's title is offered as the video's; the member may change it.
    expect(await dialog.getByLabel('Title').inputValue()).toBe('From my gallery');
    await dialog.getByLabel('Title').fill('Shared from the gallery');
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const card = page.getByRole('article', { name: 'Shared from the gallery' });
    await card.waitFor();
    await expect.poll(() => card.getByText('Pending').count(), { timeout: 30_000 }).toBe(0);

    // Handed over once: a reload does not open it again.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await card.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  test("offers a long shared title cut to the upload form's limit (120 characters), not shorter", async ({ server, context }) => {
    const { page } = await signedInWithWorker(server, context, 'Lena Long');
    const long = Array.from({ length: 14 }, (_, i) => `Sunset ${String(i).padStart(2, '0')}`).join(' ');
    expect(long.length).toBeGreaterThan(VIDEO_TITLE_MAX);
    await shareIntoVidi(page, video, long);
    const dialog = page.getByRole('dialog', { name: 'Upload Video' });
    await dialog.getByText(new RegExp(`^${basename(video).replace('.', '\\.')} \\(`)).waitFor();
    expect(await dialog.getByLabel('Title').inputValue()).toBe(long.slice(0, VIDEO_TITLE_MAX));
  });

  test.for([
    { what: 'a file that is not a video', file: () => notes, title: 'Invalid file type', description: 'Please select a video file' },
    {
      what: 'a video over 120 MB',
      file: () => oversized,
      title: 'File too large',
      description: 'Please select a video under 120MB (approximately 2 minutes)',
    },
  ])('refuses $what with the upload toast, keeps nothing and opens no dialog', async ({ file, title, description }, { server, context }) => {
    const { page } = await signedInWithWorker(server, context, 'Tess Text');
    await shareIntoVidi(page, file());
    await toastText(page, title);
    await toastText(page, description);
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Only the reason was kept, and it was handed over once: nothing is left for a reload to show.
    expect(await keptShare(page)).toBeNull();
  });

  test('keeps the shared video through signing in', async ({ server, context }) => {
    const { email, page } = await signedInWithWorker(server, context, 'Owen Out');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL('**/login');
    await shareIntoVidi(page, video);
    // The member guard sends a visitor to /login; after signing in they land on /home.
    await page.waitForURL('**/login');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await logInThroughUi(page, server, email);
    await page
      .getByRole('dialog', { name: 'Upload Video' })
      .getByText(/\.mp4 \(/)
      .waitFor();
  });

  // Issue 26, low 6: another site's form must not plant a file in the member's upload dialog.
  test("refuses a share POSTed by another site's page: the app opens plainly and nothing is kept", async ({ server, context }) => {
    const { page } = await signedInWithWorker(server, context, 'Carl Cross');
    // Another site on this machine (127.0.0.2 is loopback too, and a different site from 127.0.0.1).
    const attacker: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<form id="f" method="post" enctype="multipart/form-data" action="${server.url}/share-target">
        <input type="hidden" name="title" value="Planted"><input type="file" name="video" id="file"></form>`);
    });
    await new Promise<void>((ok) => attacker.listen(0, '127.0.0.2', ok));
    try {
      await page.goto(`http://127.0.0.2:${(attacker.address() as AddressInfo).port}/`);
      await page.setInputFiles('#file', video);
      await Promise.all([
        page.waitForURL(`${server.url}/home`, { waitUntil: 'commit' }),
        page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit()),
      ]);
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      expect(await keptShare(page)).toBeNull();
      expect(await page.getByRole('dialog').count()).toBe(0);
    } finally {
      attacker.close();
    }
  });

  test('is offered to the operating system by the manifest', async ({ server }) => {
    const manifest = (await (await fetch(`${server.url}/manifest.webmanifest`)).json()) as Record<string, any>;
    expect(manifest.share_target).toEqual({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', files: [{ name: 'video', accept: ['video/*', '.mp4', '.mov', '.webm'] }] },
    });
  });

  test('is sent to the app by the server when no service worker caught the share', async ({ server }) => {
    const form = new FormData();
    form.append('title', 'No worker yet');
    form.append('video', new Blob([new Uint8Array(2 * 1024 * 1024)], { type: 'video/mp4' }), 'clip.mp4');
    const res = await fetch(`${server.url}/share-target`, { method: 'POST', body: form, redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/home');
    // The browser follows with a GET: the app's shell.
    const home = await fetch(new URL(res.headers.get('location')!, server.url));
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
  });
});
