/** Retry delay: 200 ms times the attempt, capped (docs/sync.md, "Error classes"). */
export const RETRY_STEP_MS = 200;
export const RETRY_CAP_MS = 10_000;

/**
 * How a failed round is retried: `wake` waits for the next wake() (nothing is tried on a timer),
 * `backoff` retries after the growing delay, and `{ holdMs }` retries no sooner than the server
 * asked and holds every wake() back until then.
 */
export type RetryPlan = 'wake' | 'backoff' | { holdMs: number };

export interface RetryLoopOptions {
  /** One round of work; a throw is a failure, retried as onFailure says. */
  round: () => Promise<void>;
  /** Whether there is work left: the loop runs rounds until there is none. */
  hasWork: () => boolean;
  /** Reports a failed round (it is the place to show why) and says how to retry it. */
  onFailure: (err: unknown) => RetryPlan;
  /** Called when the loop starts running rounds, and when it stops (done, failed or stopped). */
  onBusy?: () => void;
  onIdle?: () => void;
  stepMs?: number;
  capMs?: number;
}

/**
 * Runs rounds of work one at a time until none is left, and retries a failed round with a delay
 * that grows with each failure in a row and resets on success. Shaped after Replicache's connection
 * loop (https://github.com/rocicorp/replicache/blob/main/src/connection-loop.ts), without its
 * parallel connections: here a round holds a lock every tab shares, so rounds never overlap.
 */
export class RetryLoop {
  private readonly opts: RetryLoopOptions;
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Until when (Date.now()) the server's wait holds every wake back; 0 when none does. */
  private holdUntil = 0;
  private attempt = 0;
  private stopped = false;
  private lastOk = true;

  constructor(opts: RetryLoopOptions) {
    this.opts = opts;
  }

  /** New work: run now, unless a round is running (it picks the work up) or the server asked to wait. */
  wake(): void {
    if (this.stopped) return;
    if (this.timer) {
      // A new action during the server's wait waits for its timer too, or each would be refused
      // again. The work stays recorded by the caller, so nothing is lost and order holds.
      if (Date.now() < this.holdUntil) return;
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once no round runs; true if the last round succeeded. */
  async idle(): Promise<boolean> {
    while (this.running) await this.running;
    return this.lastOk;
  }

  /** A round runs or a retry is waiting. */
  get busy(): boolean {
    return this.running !== null || this.timer !== null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private async drain(): Promise<void> {
    this.opts.onBusy?.();
    try {
      while (!this.stopped && this.opts.hasWork()) {
        try {
          await this.opts.round();
          this.lastOk = true;
          this.attempt = 0;
        } catch (err) {
          this.lastOk = false;
          this.retry(this.opts.onFailure(err));
          return;
        }
      }
    } finally {
      this.opts.onIdle?.();
    }
  }

  private retry(plan: RetryPlan): void {
    if (plan === 'wake') return;
    this.attempt += 1;
    const backoff = Math.min((this.opts.stepMs ?? RETRY_STEP_MS) * this.attempt, this.opts.capMs ?? RETRY_CAP_MS);
    const held = typeof plan === 'object';
    const delay = Math.max(held ? plan.holdMs : 0, backoff);
    this.holdUntil = held ? Date.now() + delay : 0;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.holdUntil = 0;
      this.wake();
    }, delay);
  }
}
