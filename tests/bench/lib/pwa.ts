import type { Page } from 'playwright-core';
import { lastMailTo } from '#tests/helpers/mail-sink';

export const BENCH_PASSWORD = 'bench horse battery 1';

/** A member made the way a person would: sign-up over the API and the mailed verification link. */
export async function signUpMember(origin: string, dataDir: string, name: string): Promise<string> {
  const email = `bench-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
  const res = await fetch(`${origin}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, email, password: BENCH_PASSWORD }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const link = lastMailTo(dataDir, email).links.find((l) => l.includes('/api/auth/verify?token='));
  if (!link) throw new Error(`no verification link mailed to ${email}`);
  const { pathname, search } = new URL(link);
  await fetch(origin + pathname + search, { redirect: 'manual' });
  return email;
}

export async function logIn(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(BENCH_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/home');
}

export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(`(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((ok) => navigator.serviceWorker.addEventListener('controllerchange', () => ok(), { once: true }));
    }
  })()`);
}

/** Rows in a store of the app's IndexedDB database ('vidi'), read with the raw API. */
export async function idbCount(page: Page, store: string): Promise<number> {
  return (await page.evaluate(`new Promise((ok) => {
    const r = indexedDB.open('vidi');
    r.onsuccess = () => {
      const db = r.result;
      if (!db.objectStoreNames.contains(${JSON.stringify(store)})) { db.close(); return ok(0); }
      const q = db.transaction(${JSON.stringify(store)}).objectStore(${JSON.stringify(store)}).count();
      q.onsuccess = () => { db.close(); ok(q.result); };
    };
    r.onerror = () => ok(0);
  })`)) as number;
}

export async function pollUntil(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
