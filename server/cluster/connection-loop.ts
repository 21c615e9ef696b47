/**
 * Keeps one long-lived connection up (the LISTEN connection of the shared pokes, the leader's
 * lock connection): connect, wait until it ends, wait a growing delay, connect again, until
 * stopped. The delay doubles after each failed try and starts over once a connection held, so a
 * database that restarts is rejoined within the first short delay, and a database that stays down
 * is not hammered by every instance at once.
 */
export interface Backoff {
  /** The wait before the first retry after a drop or a failed try. */
  initialMs: number;
  /** The longest wait between tries. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { initialMs: 200, maxMs: 10_000 };

/** The wait before the next try after `failures` failed tries in a row (0: right after a drop). */
export function retryDelay(failures: number, backoff: Backoff = DEFAULT_BACKOFF): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures, 30));
}

/** One connection, as the loop sees it: `ended` settles when it closes or breaks, for any reason. */
export interface HeldConnection {
  ended: Promise<unknown>;
  close(): Promise<void>;
}

export interface ConnectionLoopOptions {
  /** Opens and sets up a connection; throws when it cannot. */
  connect(): Promise<HeldConnection>;
  /** Called each time a connection is up; `again` after the first (what was missed meanwhile must be caught up). */
  onUp?(again: boolean): void;
  /** Called when a connection ended or a try failed (with the error, if there is one). */
  onDown?(err: unknown): void;
  backoff?: Backoff;
}

export interface ConnectionLoop {
  /** Settles once the first connection is up (or the loop stopped before that). */
  firstUp: Promise<void>;
  /** Ends the loop and closes the connection it holds. */
  stop(): Promise<void>;
}

export function startConnectionLoop(options: ConnectionLoopOptions): ConnectionLoop {
  let stopped = false;
  let current: HeldConnection | null = null;
  let wake = () => {};
  let markUp = () => {};
  const firstUp = new Promise<void>((resolve) => (markUp = resolve));
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const holdOne = async (everUp: boolean): Promise<boolean> => {
    const conn = await options.connect();
    if (stopped) {
      await conn.close().catch(() => undefined);
      return false;
    }
    current = conn;
    options.onUp?.(everUp);
    markUp();
    await conn.ended.catch(() => undefined);
    current = null;
    if (!stopped) options.onDown?.(undefined);
    return true;
  };

  const run = async () => {
    let everUp = false;
    let failures = 0;
    while (!stopped) {
      try {
        if (await holdOne(everUp)) {
          everUp = true;
          failures = 0;
        }
      } catch (err) {
        if (!stopped) options.onDown?.(err);
        failures++;
      }
      if (!stopped) await sleep(retryDelay(failures, options.backoff));
    }
    markUp();
  };
  const running = run();

  return {
    firstUp,
    async stop() {
      stopped = true;
      wake();
      await current?.close().catch(() => undefined);
      await running;
    },
  };
}
