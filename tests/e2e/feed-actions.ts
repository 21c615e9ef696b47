import { expect } from 'vitest';
import type { Page } from 'playwright-core';

// Shared feed steps of the PWA browser tests (docs/pwa.md, "Tests").

/** Waits until the service worker is active and controls the page. */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((ok) => navigator.serviceWorker.addEventListener('controllerchange', () => ok(), { once: true }));
    }
  });
}

/** Opens the upload dialog, fills in the title and file, and presses Upload (it may stay pending). */
export async function uploadThroughDialog(page: Page, title: string, file: string): Promise<void> {
  await page
    .getByRole('button', { name: /^Upload/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Video File (max 2 minutes)').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
}

/** uploadThroughDialog, then waits for the card to show and to stop being pending (sent to the server). */
export async function uploadAndWaitSent(page: Page, title: string, file: string): Promise<void> {
  await uploadThroughDialog(page, title, file);
  const card = page.getByRole('article', { name: title });
  await card.waitFor();
  await expect.poll(() => card.getByText('Pending').count(), { timeout: 30_000 }).toBe(0);
}
