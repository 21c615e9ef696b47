import type { Page } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser';
import { ratioRow, unavailable } from './lib/result';
import { quantile } from './lib/stats';
import { logIn, signUpMember } from './lib/pwa';
import type { Benchmark } from './lib/context';

/** Records, in the watching page, when the like button of one card changes its label. */
const WATCH = (videoId: string) => `(() => {
  window.__likes = [];
  const sel = '#video-' + CSS.escape(${JSON.stringify(videoId)}) + ' .card-actions button[aria-pressed]';
  const btn = document.querySelector(sel);
  if (!btn) throw new Error('no like button for the watched card');
  new MutationObserver(() => window.__likes.push({ t: performance.timeOrigin + performance.now(), label: btn.getAttribute('aria-label') }))
    .observe(btn, { attributes: true, attributeFilter: ['aria-label'] });
})()`;

/** Clicks the like button of a card and returns the wall-clock time of the click. */
const CLICK = (videoId: string) => `(() => {
  const btn = document.querySelector('#video-' + CSS.escape(${JSON.stringify(videoId)}) + ' .card-actions button[aria-pressed]');
  const t = performance.timeOrigin + performance.now();
  btn.click();
  return t;
})()`;

async function firstCardId(page: Page): Promise<string> {
  const card = page.locator('article.video-card').first();
  await card.waitFor({ timeout: 60_000 });
  return ((await card.getAttribute('id')) ?? '').replace(/^video-/, '');
}

/**
 * 7. A like clicked in one browser context, seen in another (two members, two contexts, the
 * second one idle on the feed): click to the other page's like count changing (SSE poke, pull,
 * IndexedDB, render), p95, vs the HTTP round trip of the push that carried the like.
 */
export const liveUpdate: Benchmark = {
  id: 'live',
  title: 'Live update',
  async run(ctx) {
    const name = 'Live update: like seen in another context';
    if (!hasChromium) return [unavailable(name, 'ms p95', '<= 3x and < 100 ms', 'no Chromium (set CHROMIUM_PATH)')];
    const browser = await launchChromium();
    try {
      const [emailA, emailB] = [
        await signUpMember(ctx.server.url, ctx.dataDir, 'Bench Liker'),
        await signUpMember(ctx.server.url, ctx.dataDir, 'Bench Watcher'),
      ];
      const a = await (await browser.newContext()).newPage();
      const b = await (await browser.newContext()).newPage();
      // Turns on the engine's step trace (client/sync/trace.ts) in both pages.
      for (const p of [a, b]) await p.addInitScript('window.__vidiTrace = []');
      await logIn(a, ctx.server.url, emailA!);
      await logIn(b, ctx.server.url, emailB!);
      const videoId = await firstCardId(a);
      if ((await firstCardId(b)) !== videoId) throw new Error('the two members see different first videos');
      // Let both settle (first pulls done, event streams open) before measuring.
      await new Promise((r) => setTimeout(r, 2000));
      await b.evaluate(WATCH(videoId));
      const pushTimes: number[] = [];
      // Wall-clock spans of A's pushes, to split the delay into its steps.
      const pushes: Array<{ start: number; end: number }> = [];
      a.on('requestfinished', (req) => {
        if (!req.url().endsWith('/api/sync/push')) return;
        const t = req.timing();
        pushTimes.push(t.responseEnd);
        pushes.push({ start: t.startTime, end: t.startTime + t.responseEnd });
      });
      const clicks: number[] = [];
      const seenAt: number[] = [];
      const seen: number[] = [];
      const reps = ctx.quick ? 6 : 20;
      for (let i = 1; i <= reps; i++) {
        const clicked = (await a.evaluate(CLICK(videoId))) as number;
        const deadline = Date.now() + 15_000;
        let change: { t: number } | undefined;
        while (!change) {
          const all = (await b.evaluate('window.__likes')) as Array<{ t: number }>;
          change = all[i - 1];
          if (!change && Date.now() > deadline) throw new Error(`like ${i} never showed in the other context`);
          if (!change) await new Promise((r) => setTimeout(r, 5));
        }
        seen.push(change.t - clicked);
        clicks.push(clicked);
        seenAt.push(change.t);
        await new Promise((r) => setTimeout(r, 300));
      }
      if (!pushTimes.length) throw new Error('no push request was observed');
      const p95 = (xs: number[]) => [quantile(xs, 0.95)];
      const [ta, tb] = [await readTrace(a), await readTrace(b)];
      ctx.log(`live: median fine steps (ms): ${fineSteps(clicks, seenAt, ta, tb)}`);
      const breakdown = coarseSteps(clicks, seenAt, pushes, ta, tb);
      const row = ratioRow(
        {
          name,
          unit: 'ms p95',
          direction: 'lower',
          targetRatio: 3,
          absolute: { max: 100, label: '< 100 ms' },
          notes: `${reps} likes; median ${Math.round(quantile(seen, 0.5))} ms; ${breakdown}; baseline: the push's HTTP round trip`,
        },
        p95(seen),
        p95(pushTimes),
      );
      row.spread = `n=${seen.length}/${pushTimes.length}`;
      return [row];
    } finally {
      await browser.close();
    }
  },
};

interface TraceEntry {
  step: string;
  t: number;
}

async function readTrace(page: Page): Promise<TraceEntry[]> {
  return ((await page.evaluate('window.__vidiTrace ?? []')) as TraceEntry[]).sort((x, y) => x.t - y.t);
}

/** The engine's trace steps of one like, in the order they happen; a step not seen is skipped. */
const CHAIN: Array<[page: 'A' | 'B', step: string]> = [
  ['A', 'drain'],
  ['A', 'locked'],
  ['A', 'enqueued'],
  ['A', 'push:batch:prefetched'],
  ['A', 'push:batch'],
  ['A', 'fetch:/api/sync/push'],
  ['A', 'push:answered'],
  ['B', 'poke'],
  ['B', 'drain'],
  ['B', 'locked'],
  ['B', 'fetch:/api/sync/pull'],
  ['B', 'pull:parsed'],
  ['B', 'apply:start'],
  ['B', 'apply:confirmed'],
  ['B', 'apply:end'],
  ['B', 'delta:applied'],
  ['B', 'pull:applied'],
  ['B', 'feed:rows'],
];

/**
 * Per like: click -> push request sent (optimistic write, lock), the push's round trip, push
 * answered -> poke read on B (the server reads the delta), poke -> rows written on B (a delta
 * applied, or a pull), written -> count on screen (the feed watch and React). Medians, and how
 * many likes came by delta rather than by pull.
 */
function coarseSteps(clicks: number[], seenAt: number[], pushes: Array<{ start: number; end: number }>, ta: TraceEntry[], tb: TraceEntry[]): string {
  const steps = { toPush: [] as number[], push: [] as number[], toPoke: [] as number[], apply: [] as number[], render: [] as number[] };
  let byDelta = 0;
  clicks.forEach((click, i) => {
    const end = seenAt[i]!;
    const push = pushes.find((x) => x.start >= click - 5);
    const sent = ta.find((e) => e.step === 'fetch:/api/sync/push' && e.t >= click);
    const answered = sent && ta.find((e) => e.step === 'push:answered' && e.t >= sent.t);
    const poke = sent && tb.find((e) => e.step === 'poke' && e.t >= sent.t && e.t <= end);
    const applied = poke && tb.find((e) => (e.step === 'delta:applied' || e.step === 'pull:applied') && e.t >= poke.t && e.t <= end);
    if (!push || !sent || !answered || !poke || !applied) return;
    if (applied.step === 'delta:applied') byDelta += 1;
    steps.toPush.push(sent.t - click);
    steps.push.push(push.end - push.start);
    steps.toPoke.push(poke.t - answered.t);
    steps.apply.push(applied.t - poke.t);
    steps.render.push(end - applied.t);
  });
  const med = (xs: number[]) => (xs.length ? quantile(xs, 0.5).toFixed(1) : '-');
  return (
    `median steps: click->push sent ${med(steps.toPush)}, push ${med(steps.push)}, push answered->poke on B ${med(steps.toPoke)}, ` +
    `poke->rows written ${med(steps.apply)}, written->screen ${med(steps.render)} ms; ${byDelta}/${clicks.length} by delta`
  );
}

/** Median time between consecutive traced steps of each like, click to the count on B's screen. */
function fineSteps(clicks: number[], seenAt: number[], ta: TraceEntry[], tb: TraceEntry[]): string {
  const gaps = new Map<string, number[]>();
  clicks.forEach((click, i) => {
    const end = seenAt[i]!;
    let prev = { name: 'click', t: click };
    for (const [page, step] of CHAIN) {
      // The poke may be written before A reads the push answer: search B from A's request on.
      const from = page === 'B' && step === 'poke' ? (ta.find((e) => e.step === 'fetch:/api/sync/push' && e.t >= click)?.t ?? prev.t) : prev.t;
      const hit = (page === 'A' ? ta : tb).find((e) => e.step === step && e.t >= from && e.t <= end);
      if (!hit) continue;
      const key = `${prev.name}->${page}:${step}`;
      gaps.set(key, [...(gaps.get(key) ?? []), hit.t - prev.t]);
      prev = { name: `${page}:${step}`, t: hit.t };
    }
    const key = `${prev.name}->screen`;
    gaps.set(key, [...(gaps.get(key) ?? []), end - prev.t]);
  });
  return [...gaps].map(([k, xs]) => `${k} ${quantile(xs, 0.5).toFixed(1)} (n=${xs.length})`).join(', ');
}
