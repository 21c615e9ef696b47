import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** Waits until a toast with exactly this text is shown in the notifications region. */
export async function toastText(page: Page, text: string): Promise<void> {
  await page
    .getByRole('region', { name: /Notifications/ })
    .getByText(text, { exact: true })
    .waitFor();
}

/** Closes the visible toast so it cannot cover the next click. */
export async function closeToast(page: Page): Promise<void> {
  const region = page.getByRole('region', { name: /Notifications/ });
  await region.getByRole('button', { name: /close/i }).first().click();
  await expect.poll(() => region.locator('[data-sonner-toast]').count(), { timeout: 10_000 }).toBe(0);
}
