import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The module keeps whether the first screen was drawn: each test loads it fresh.
async function load() {
  vi.resetModules();
  return import('./after-first-screen');
}

describe('afterFirstScreen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // Node has neither: the fallbacks (a timer for idle, no frame to wait for) are what runs here.
    vi.stubGlobal('requestAnimationFrame', (run: () => void) => setTimeout(run, 16));
    // The page has just started (fake timers leave performance alone).
    vi.stubGlobal('performance', { now: () => 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('waits for the first cards to be drawn, then runs each waiting task once', async () => {
    const { afterFirstScreen, markFirstScreenDrawn } = await load();
    const run = vi.fn();
    afterFirstScreen(run);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).not.toHaveBeenCalled();
    markFirstScreenDrawn();
    markFirstScreenDrawn();
    await vi.advanceTimersByTimeAsync(100);
    expect(run).toHaveBeenCalledTimes(1);
    // Later callers do not wait for a screen that is drawn already.
    const late = vi.fn();
    afterFirstScreen(late);
    await vi.advanceTimersByTimeAsync(10);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('runs nothing that was cancelled, before or after the screen was drawn', async () => {
    const { afterFirstScreen, markFirstScreenDrawn } = await load();
    const early = vi.fn();
    afterFirstScreen(early)();
    markFirstScreenDrawn();
    await vi.advanceTimersByTimeAsync(20);
    const queued = vi.fn();
    // Cancelled after the screen was drawn but before the idle moment came.
    afterFirstScreen(queued)();
    await vi.advanceTimersByTimeAsync(5000);
    expect(early).not.toHaveBeenCalled();
    expect(queued).not.toHaveBeenCalled();
  });

  it('runs anyway on a screen that draws no cards, a few seconds after the page started', async () => {
    const { afterFirstScreen } = await load();
    const run = vi.fn();
    afterFirstScreen(run);
    await vi.advanceTimersByTimeAsync(3000);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
