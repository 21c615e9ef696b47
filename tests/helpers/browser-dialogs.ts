import type { Page } from 'playwright-core';

/**
 * Accepts the page's next confirmation dialog (a signed-in page dismisses them, tests/helpers/signed-in-page.ts)
 * and keeps its message in the array returned; the dialogs after it are dismissed again.
 */
export function acceptNextDialog(page: Page): string[] {
  const messages: string[] = [];
  page.removeAllListeners('dialog');
  page.once('dialog', (d) => {
    messages.push(d.message());
    void d.accept();
    page.on('dialog', (next) => void next.dismiss());
  });
  return messages;
}
