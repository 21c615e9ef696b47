import { openDatabase } from '#db/connect';
import type { Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser';
import { ratioRow, unavailable } from './lib/result';
import { idbCount, logIn, pollUntil, signUpMember, waitForServiceWorker } from './lib/pwa';
import type { Benchmark } from './lib/context';

const WINDOW = 300;
const STORES = ['videos', 'server_videos'];

/** Marks, relative to navigation start, when the first feed card and when the empty feed rendered. */
const MARKS = `(() => {
  window.__bench = {};
  const mark = (k) => { if (window.__bench[k] === undefined) window.__bench[k] = performance.now(); };
  const check = () => {
    if (document.querySelector('article.video-card')) mark('card');
    if (document.querySelector('section.empty-state')) mark('empty');
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

async function storeRows(page: Page, action: 'dump' | 'clear' | 'restore', rows?: Record<string, unknown[]>): Promise<Record<string, unknown[]>> {
  return (await page.evaluate(
    `new Promise((ok, fail) => {
      const stores = ${JSON.stringify(STORES)};
      const action = ${JSON.stringify(action)};
      const rows = ${JSON.stringify(rows ?? {})};
      const r = indexedDB.open('vidi');
      r.onerror = () => fail(r.error);
      r.onsuccess = () => {
        const db = r.result;
        const tx = db.transaction(stores, action === 'dump' ? 'readonly' : 'readwrite');
        const out = {};
        for (const s of stores) {
          const os = tx.objectStore(s);
          if (action === 'dump') { const q = os.getAll(); q.onsuccess = () => { out[s] = q.result; }; }
          else { os.clear(); if (action === 'restore') for (const row of rows[s] || []) os.put(row); }
        }
        tx.oncomplete = () => { db.close(); ok(out); };
        tx.onerror = () => fail(tx.error);
      };
    })`,
  )) as Record<string, unknown[]>;
}

async function timeTo(page: Page, mark: 'card' | 'empty'): Promise<number> {
  await page.reload({ waitUntil: 'commit' });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const t = (await page.evaluate(`window.__bench && window.__bench[${JSON.stringify(mark)}]`)) as number | undefined;
    if (typeof t === 'number') return t;
    if (Date.now() > deadline) throw new Error(`offline reload: no ${mark === 'card' ? 'video card' : 'empty feed'} within 30 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * 6a. Offline navigation (service worker shell, IndexedDB data) to the first video card with the
 * feed window of 300 videos cached, vs the same page with the video tables emptied (the shell and
 * its empty state). Same signed-in member, same context, alternating.
 */
export const browserOffline: Benchmark = {
  id: 'offline',
  title: 'Offline first card',
  async run(ctx) {
    const name = `Browser: offline nav to first card, ${WINDOW} cached`;
    if (!hasChromium) return [unavailable(name, 'ms', '<= 1.5x', 'no Chromium (set CHROMIUM_PATH)')];
    const browser = await launchChromium();
    try {
      const email = await signUpMember(ctx.server.url, ctx.dataDir, 'Bench Offline');
      const context = await browser.newContext();
      await context.addInitScript(MARKS);
      const page = await context.newPage();
      await logIn(page, ctx.server.url, email);
      await waitForServiceWorker(page);
      const handle = openDatabase(ctx.databaseUrl);
      const videos = await handle.db
        .selectFrom('videos')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .finally(() => handle.close());
      const total = Math.min(WINDOW, Number(videos.n));
      await pollUntil(`${total} videos in IndexedDB`, 120_000, async () => (await idbCount(page, 'videos')) >= total);
      const snapshot = await storeRows(page, 'dump');
      const cached = snapshot.videos?.length ?? 0;
      await context.setOffline(true);
      const ours: number[] = [];
      const base: number[] = [];
      const reps = ctx.quick ? 3 : 10;
      for (let i = 0; i < reps + 1; i++) {
        const full = async () => {
          await storeRows(page, 'restore', snapshot);
          return timeTo(page, 'card');
        };
        const empty = async () => {
          await storeRows(page, 'clear');
          return timeTo(page, 'empty');
        };
        const [a, b] = i % 2 === 0 ? [await full(), await empty()] : [await empty(), await full()].reverse();
        // The first pair warms the service worker's caches and the JIT.
        if (i > 0) {
          ours.push(a!);
          base.push(b!);
        }
      }
      await context.close();
      return [ratioRow({ name, unit: 'ms', direction: 'lower', targetRatio: 1.5, notes: `${cached} videos in IndexedDB; vs empty feed shell` }, ours, base)];
    } finally {
      await browser.close();
    }
  },
};
