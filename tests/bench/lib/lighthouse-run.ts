import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { chromiumPath } from '#tests/helpers/browser';
import { SESSION_USER_KEY } from '#client/lib/session/session-cache';

// One Lighthouse run with its default mobile settings (simulated throttling, a Moto G Power-class
// CPU on slow 4G), in a Chromium of its own: chrome-launcher gives each launch a new profile folder,
// so no run inherits the previous one's HTTP cache, service worker or storage.

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** One request of the page load as Lighthouse's network-requests audit lists it. */
export interface SeenRequest {
  url: string;
  method: string;
  resourceType: string;
  mimeType: string;
  statusCode: number;
  transferSize: number;
  resourceSize: number;
}

export interface LighthouseRun {
  /** 0-100, as Lighthouse shows them. */
  scores: Record<Category, number>;
  fcpMs: number;
  lcpMs: number;
  /**
   * Lighthouse's measure of the host CPU at the start of the run (higher is faster). Simulated
   * throttling scales the CPU time it observed, so a busy machine lowers the performance score.
   */
  benchmarkIndex: number;
  /** The page's own requests (not a worker's), in the order they started. */
  requests: SeenRequest[];
  /** Audits that cost points (score < 1, weighted in a category): what stands in the way of a target. */
  failing: string[];
  /** What the console and DevTools' issues panel reported (best practices lose points for each). */
  problems: string[];
}

export interface Credentials {
  email: string;
  password: string;
}

/**
 * Signs a member in inside the fresh browser the way the app does: the login call sets the
 * HttpOnly refresh cookie and the app's cached profile marks the device as signed in before.
 * Then the HTTP cache is emptied, so the measured load starts cold but signed in.
 */
async function signIn(chrome: LaunchedChrome, origin: string, who: Credentials): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('the launched Chromium has no default context');
    const page = await context.newPage();
    // A static image, not an app page: nothing runs and no service worker is registered.
    await page.goto(`${origin}/favicon.png`);
    const status = await page.evaluate(
      async ({ who, key }) => {
        const res = await fetch('/api/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
        const body = (await res.json()) as { user?: unknown };
        if (res.ok) localStorage.setItem(key, JSON.stringify(body.user));
        return res.status;
      },
      { who: { email: who.email, password: who.password }, key: SESSION_USER_KEY },
    );
    if (status !== 200) throw new Error(`login for the Lighthouse run answered ${status}`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Disconnects; the browser and its profile stay for Lighthouse.
    await browser.close();
  }
}

/** Methods by request id, from the run's DevTools log (the audit's items carry no method). */
function methodsByUrl(devtoolsLog: { method: string; params: unknown }[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of devtoolsLog) {
    if (e.method !== 'Network.requestWillBeSent') continue;
    const { request } = e.params as { request: { url: string; method: string } };
    const set = out.get(request.url) ?? new Set<string>();
    set.add(request.method);
    out.set(request.url, set);
  }
  return out;
}

interface AuditItem {
  url: string;
  sessionTargetType?: string;
  resourceType?: string;
  mimeType?: string;
  statusCode: number;
  transferSize?: number;
  resourceSize?: number;
}

/** Lighthouse could not record the load (its runtimeError, e.g. NO_NAVSTART): it asks to run again. */
class RecordingFailed extends Error {}

const ATTEMPTS = 3;

/**
 * One measured load. Lighthouse now and then fails to record a trace on this machine (NO_NAVSTART
 * in about one run of twenty): such a run is made again in a new profile, at most twice, and said.
 */
export async function runLighthouse(url: string, opts: { signIn?: Credentials; log?: (m: string) => void } = {}): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await onePass(url, opts.signIn);
    } catch (e) {
      if (!(e instanceof RecordingFailed) || attempt >= ATTEMPTS) throw e;
      opts.log?.(`${e.message}; running again`);
    }
  }
}

function lighthouseFlags(port: number, signedIn: boolean) {
  return {
    port,
    output: 'json' as const,
    logLevel: 'error' as const,
    // With a sign-in, Lighthouse must not reset the origin's storage (it would drop the cookie);
    // the profile is new and its HTTP cache was emptied, so the load is still a first one.
    ...(signedIn ? { disableStorageReset: true } : {}),
    // Kept artifacts carry the JS samples too, for a profile of the run's main thread (the sampling
    // slows the page: VIDI_LIGHTHOUSE_CPU_PROFILE=0 keeps the trace as Lighthouse takes it).
    ...(process.env.VIDI_LIGHTHOUSE_ARTIFACTS && process.env.VIDI_LIGHTHOUSE_CPU_PROFILE !== '0'
      ? { additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' }
      : {}),
  };
}

async function onePass(url: string, signInAs: Credentials | undefined): Promise<LighthouseRun> {
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    if (signInAs) await signIn(chrome, new URL(url).origin, signInAs);
    const result = await lighthouse(url, lighthouseFlags(chrome.port, signInAs !== undefined));
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr, artifacts } = result;
    keepReport(url, lhr);
    keepArtifacts(url, lhr, artifacts);
    if (lhr.runtimeError) throw new RecordingFailed(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scores = {} as Record<Category, number>;
    for (const c of CATEGORIES) {
      const score = lhr.categories[c]?.score;
      if (typeof score !== 'number') throw new Error(`Lighthouse on ${url}: no ${c} score`);
      scores[c] = Math.round(score * 100);
    }
    const methods = methodsByUrl(artifacts.DevtoolsLog as { method: string; params: unknown }[]);
    const items = ((lhr.audits['network-requests']?.details as { items?: AuditItem[] } | undefined)?.items ?? []).filter(
      (i) => (i.sessionTargetType ?? 'page') === 'page',
    );
    const requests = items.map((i) => ({
      url: i.url,
      method: [...(methods.get(i.url) ?? ['GET'])].join('/'),
      resourceType: i.resourceType ?? 'Other',
      mimeType: i.mimeType ?? '',
      statusCode: i.statusCode,
      transferSize: i.transferSize ?? 0,
      resourceSize: i.resourceSize ?? 0,
    }));
    return {
      scores,
      fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      benchmarkIndex: lhr.environment.benchmarkIndex,
      requests,
      failing: failingAudits(lhr),
      problems: problemsOf(lhr),
    };
  } finally {
    chrome.kill();
  }
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

/**
 * VIDI_LIGHTHOUSE_REPORTS=DIR keeps every run's full report (open it in the Lighthouse viewer,
 * https://googlechrome.github.io/lighthouse/viewer/): the rows say what lost points, the report why.
 */
function keepReport(url: string, lhr: Lhr): void {
  const dir = process.env.VIDI_LIGHTHOUSE_REPORTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const page = new URL(url).pathname.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'landing';
  writeFileSync(join(dir, `${page}-${new Date(lhr.fetchTime).getTime()}.json`), JSON.stringify(lhr));
}

/**
 * VIDI_LIGHTHOUSE_ARTIFACTS=DIR keeps what Lighthouse's simulation ran on (trace, DevTools log):
 * tests/bench/lighthouse-lantern.ts replays it and lists the requests and tasks behind FCP and LCP.
 */
function keepArtifacts(url: string, lhr: Lhr, artifacts: { Trace: unknown; DevtoolsLog: unknown; URL: unknown; GatherContext: unknown }): void {
  const dir = process.env.VIDI_LIGHTHOUSE_ARTIFACTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const page = new URL(url).pathname.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'landing';
  const { Trace, DevtoolsLog, URL: urls, GatherContext } = artifacts;
  const kept = { Trace, DevtoolsLog, URL: urls, GatherContext, settings: lhr.configSettings };
  writeFileSync(join(dir, `${page}-${new Date(lhr.fetchTime).getTime()}.artifacts.json`), JSON.stringify(kept));
}

function failingAudits(lhr: Lhr): string[] {
  const out: string[] = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && typeof a.score === 'number' && a.score < 1) out.push(`${c}: ${ref.id} ${Math.round(a.score * 100)}`);
    }
  }
  return out;
}

interface ProblemItem {
  description?: string;
  issueType?: string;
  subItems?: { items?: { url?: string }[] };
}

function problemsOf(lhr: Lhr): string[] {
  const items = (id: string) => (lhr.audits[id]?.details as { items?: ProblemItem[] } | undefined)?.items ?? [];
  return [
    ...items('errors-in-console').map((i) => `console: ${i.description ?? '?'}`),
    ...items('inspector-issues').map((i) => `issue: ${i.issueType ?? '?'} ${(i.subItems?.items ?? []).map((s) => s.url ?? '').join(' ')}`),
  ];
}
