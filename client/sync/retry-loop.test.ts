import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RETRY_CAP_MS, RETRY_STEP_MS, RetryLoop, type RetryPlan } from './retry-loop';

/** A loop whose rounds fail while `failures` says so, and that counts its rounds and their overlap. */
function harness(plan: RetryPlan = 'backoff') {
  const s = { work: 0, rounds: 0, running: 0, maxRunning: 0, failures: [] as boolean[], idle: 0, roundMs: 0 };
  const loop = new RetryLoop({
    hasWork: () => s.work > 0,
    onFailure: () => plan,
    onIdle: () => void (s.idle += 1),
    round: async () => {
      s.rounds += 1;
      s.running += 1;
      s.maxRunning = Math.max(s.maxRunning, s.running);
      try {
        if (s.roundMs) await new Promise((r) => setTimeout(r, s.roundMs));
        if (s.failures.shift()) throw new Error('down');
        s.work -= 1;
      } finally {
        s.running -= 1;
      }
    },
  });
  return { s, loop };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('RetryLoop', () => {
  it('runs rounds until no work is left, then goes idle', async () => {
    const { s, loop } = harness();
    s.work = 3;
    loop.wake();
    expect(await loop.idle()).toBe(true);
    expect(s.rounds).toBe(3);
    expect(s.idle).toBe(1);
    expect(loop.busy).toBe(false);
  });

  it('backs off 200 ms times the attempt, capped, and resets after a success', async () => {
    const { s, loop } = harness();
    s.work = 1;
    s.failures = [true, true, true];
    loop.wake();
    expect(await loop.idle()).toBe(false);
    expect(s.rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(RETRY_STEP_MS - 1);
    expect(s.rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.rounds).toBe(2);
    await vi.advanceTimersByTimeAsync(2 * RETRY_STEP_MS - 1);
    expect(s.rounds).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.rounds).toBe(3);
    await vi.advanceTimersByTimeAsync(3 * RETRY_STEP_MS);
    expect(s.rounds).toBe(4);
    expect(await loop.idle()).toBe(true);

    // The next failure starts over at one step.
    s.work = 1;
    s.failures = [true];
    loop.wake();
    await loop.idle();
    await vi.advanceTimersByTimeAsync(RETRY_STEP_MS);
    expect(s.rounds).toBe(6);
    expect(s.work).toBe(0);
  });

  it('caps the delay', async () => {
    const { s, loop } = harness();
    s.work = 1;
    s.failures = Array.from({ length: 80 }, () => true);
    loop.wake();
    for (let i = 1; i <= 60; i++) await vi.advanceTimersByTimeAsync(Math.min(RETRY_STEP_MS * i, RETRY_CAP_MS));
    expect(s.rounds).toBe(61);
    await vi.advanceTimersByTimeAsync(RETRY_CAP_MS - 1);
    expect(s.rounds).toBe(61);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.rounds).toBe(62);
    await loop.stop();
  });

  it('honours the wait a server asked for (429 Retry-After): wake() does not cut it short', async () => {
    const { s, loop } = harness({ holdMs: 5_000 });
    s.work = 1;
    s.failures = [true];
    loop.wake();
    await loop.idle();
    await vi.advanceTimersByTimeAsync(4_000);
    s.work += 1;
    loop.wake();
    await vi.advanceTimersByTimeAsync(999);
    expect(s.rounds).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await loop.idle()).toBe(true);
    expect(s.rounds).toBe(3);
    expect(s.work).toBe(0);
  });

  it('wakes at once on new work during a plain backoff', async () => {
    const { s, loop } = harness();
    s.work = 1;
    s.failures = [true];
    loop.wake();
    await loop.idle();
    expect(loop.busy).toBe(true);
    loop.wake();
    expect(await loop.idle()).toBe(true);
    expect(s.rounds).toBe(2);
    // The cleared timer does not fire a round of its own.
    await vi.advanceTimersByTimeAsync(RETRY_CAP_MS);
    expect(s.rounds).toBe(2);
  });

  it('waits for the next wake when the plan says so: no timer, the work is kept', async () => {
    const { s, loop } = harness('wake');
    s.work = 1;
    s.failures = [true];
    loop.wake();
    expect(await loop.idle()).toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.rounds).toBe(1);
    expect(loop.busy).toBe(false);
    loop.wake();
    expect(await loop.idle()).toBe(true);
    expect(s.work).toBe(0);
  });

  it('never runs two rounds at once: wakes during a round are picked up by it', async () => {
    const { s, loop } = harness();
    s.roundMs = 100;
    s.work = 1;
    loop.wake();
    for (let i = 0; i < 5; i++) {
      s.work += 1;
      loop.wake();
      await vi.advanceTimersByTimeAsync(30);
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await loop.idle()).toBe(true);
    expect(s.maxRunning).toBe(1);
    expect(s.rounds).toBe(6);
    expect(s.idle).toBe(1);
  });

  it('stops: no retry fires and wake() does nothing', async () => {
    const { s, loop } = harness();
    s.work = 1;
    s.failures = [true];
    loop.wake();
    await loop.idle();
    await loop.stop();
    await vi.advanceTimersByTimeAsync(RETRY_CAP_MS);
    loop.wake();
    expect(s.rounds).toBe(1);
    expect(loop.busy).toBe(false);
  });
});
