import { join } from 'node:path';
import { PROJECT_ROOT } from '../helpers/server-process';
import { hasChromium, launchChromium } from '../helpers/browser';
import { ratioRow, unavailable } from './lib/result';
import { readText, serveFiles } from './lib/static-server';
import type { Benchmark } from './lib/context';

const N = 1000;

/**
 * 6b. Dexie bulkPut of 1 000 feed rows vs one raw IndexedDB readwrite transaction putting the same
 * rows into a store with the same indexes, in Chromium, alternating, fresh stores each round.
 */
export const dexieBulk: Benchmark = {
  id: 'dexie',
  title: 'Dexie bulkPut',
  async run(ctx) {
    const name = `Browser: Dexie bulkPut ${N} rows vs raw IndexedDB`;
    if (!hasChromium) return [unavailable(name, 'ms', '<= 1.25x', 'no Chromium (set CHROMIUM_PATH)')];
    const files = await serveFiles({
      '/': { type: 'text/html', body: '<!doctype html><title>bench</title>' },
      '/dexie.mjs': { type: 'text/javascript', body: readText(join(PROJECT_ROOT, 'node_modules/dexie/dist/dexie.mjs')) },
    });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(files.url);
      // Plain JavaScript as a string: tsx would inject helpers (__name) into a serialized function.
      await page.evaluate(`(async () => {\nconst n = ${N};\n        const w = window;
        const { Dexie } = await import('/dexie.mjs');
        // The app's videos table (client/sync/db.ts): id, [created_ms+id], user_id.
        const dexie = new Dexie('bench-dexie');
        dexie.version(1).stores({ videos: 'id, [created_ms+id], user_id' });
        await dexie.open();
        const raw = await new Promise((ok, fail) => {
          const r = indexedDB.open('bench-raw', 1);
          r.onupgradeneeded = () => {
            const s = r.result.createObjectStore('videos', { keyPath: 'id' });
            s.createIndex('created_ms_id', ['created_ms', 'id']);
            s.createIndex('user_id', 'user_id');
          };
          r.onsuccess = () => ok(r.result);
          r.onerror = () => fail(r.error);
        });
        let round = 0;
        const rows = () => {
          round++;
          return Array.from({ length: n }, (_, i) => ({
            id: \`v-\${round}-\${i}-\${Math.random().toString(36).slice(2)}\`,
            user_id: \`u-\${i % 50}\`,
            user_name: 'Bench User',
            title: \`Video \${i}\`,
            description: 'A benchmark row with a realistic size of text in it.',
            video_url: \`/media/u/\${i}.mp4\`,
            poster_url: \`/media/u/\${i}.jpg\`,
            created_at: new Date(1.7e12 + i * 1000).toISOString(),
            created_ms: 1.7e12 + i * 1000,
            duration_ms: 15000,
            likes_count: i,
            comments_count: 0,
            shares_count: 0,
            views_count: 3 * i,
            liked_by_me: false,
          }));
        };
        w.benchDexie = async () => {
          await dexie.table('videos').clear();
          const data = rows();
          const t0 = performance.now();
          await dexie.table('videos').bulkPut(data);
          return performance.now() - t0;
        };
        w.benchRaw = async () => {
          await new Promise((ok) => {
            const tx = raw.transaction('videos', 'readwrite');
            tx.objectStore('videos').clear();
            tx.oncomplete = () => ok();
          });
          const data = rows();
          const t0 = performance.now();
          await new Promise((ok, fail) => {
            const tx = raw.transaction('videos', 'readwrite');
            const s = tx.objectStore('videos');
            for (const r of data) s.put(r);
            tx.oncomplete = () => ok();
            tx.onerror = () => fail(tx.error);
          });
          return performance.now() - t0;
        };
})()`);
      const reps = ctx.quick ? 5 : 15;
      const ours: number[] = [];
      const base: number[] = [];
      for (let i = 0; i < reps + 2; i++) {
        const dexieFirst = i % 2 === 0;
        const first = (await page.evaluate(dexieFirst ? 'window.benchDexie()' : 'window.benchRaw()')) as number;
        const second = (await page.evaluate(dexieFirst ? 'window.benchRaw()' : 'window.benchDexie()')) as number;
        const [a, b] = dexieFirst ? [first, second] : [second, first];
        // The first two of each are warm-up (JIT, IndexedDB files).
        if (i >= 2) {
          ours.push(a);
          base.push(b);
        }
      }
      return [ratioRow({ name, unit: 'ms', direction: 'lower', targetRatio: 1.25 }, ours, base)];
    } finally {
      await browser.close();
      await files.close();
    }
  },
};
