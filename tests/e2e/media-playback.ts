import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

interface MediaLogWindow {
  __mediaLog?: string[];
}

const EVENTS = ['play', 'playing', 'pause', 'waiting', 'stalled', 'emptied', 'abort', 'error', 'ended', 'seeking'];

/** Records the page's media events from now on, so a playback check that fails can say what happened. */
export async function recordMediaEvents(page: Page): Promise<void> {
  await page.evaluate((events) => {
    const w = window as MediaLogWindow;
    if (w.__mediaLog) return;
    const log: string[] = [];
    w.__mediaLog = log;
    for (const type of events) {
      document.addEventListener(type, (e) => log.push(`${Math.round(performance.now())}ms ${type} at ${(e.target as HTMLMediaElement).currentTime}`), true);
    }
  }, EVENTS);
}

/** Waits until the video has played past `seconds`; on failure the error carries its state and recorded events. */
export async function expectPlayedPast(page: Page, video: Locator, seconds: number, timeout = 30_000): Promise<void> {
  try {
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout }).toBeGreaterThan(seconds);
  } catch (e) {
    const state = await video.evaluate((v: HTMLVideoElement) =>
      JSON.stringify({ currentTime: v.currentTime, paused: v.paused, readyState: v.readyState, networkState: v.networkState, error: v.error?.message ?? null }),
    );
    const events = await page.evaluate(() => (window as MediaLogWindow).__mediaLog?.join('; ') ?? 'not recorded');
    throw new Error(`the video did not play past ${seconds} s: ${state}; events: ${events}`, { cause: e });
  }
}
