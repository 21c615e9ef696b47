import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { claimNextJob, releaseJob, renewLease, type ClaimedJob } from './queue';
import { registerMediaHost } from './registry';
import { runJob } from './run-job';
import { sweepAllVideoFolders, sweepLocalScratch } from './sweep';
import type { RunnerDeps, RunnerOptions, StopReason } from './types';

export interface MediaRunner {
  /** Sweeps what a crash left behind, then starts claiming. */
  start(): Promise<void>;
  /** Looks for due jobs now (an enqueue in this process calls it through the registry). */
  notify(): void;
  /** Stops claiming, stops running ffmpeg and gives their jobs back; resolves when all have stopped. */
  stop(): Promise<void>;
  /** Jobs this runner has finished a try of (done, failed or given back), for tests and logs. */
  readonly tries: number;
}

interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
}

/** A worker id that names the machine and process in logs and stays unique across restarts. */
export function newWorkerId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * The media job loop: at most `concurrency` jobs at a time, each claimed with an expiring lease
 * that a heartbeat renews every third of it; a lost lease (taken over, or the video deleted by any
 * instance: the deletion ends its jobs) aborts the try, so a worker on another machine stops within
 * a heartbeat of a deletion it was never told about. Polls every `pollMs` and is woken at once by
 * notify(). Safe to run in several processes, on several machines with S3, against one database
 * (docs/reliability.md, "The media job runner").
 */
export function createMediaRunner(deps: RunnerDeps, o: RunnerOptions): MediaRunner {
  const running = new Map<string, Running>();
  let stopped = false;
  let started = false;
  let tries = 0;
  let wakeUp: (() => void) | undefined;
  let loopDone: Promise<void> = Promise.resolve();

  // A wake that arrives while the loop is claiming is kept for the next nap, so it is never lost.
  let woken = false;
  const notify = () => {
    woken = true;
    wakeUp?.();
  };
  const nap = () =>
    new Promise<void>((ok) => {
      if (woken) return ok();
      const timer = setTimeout(() => ok(), o.pollMs);
      wakeUp = () => {
        clearTimeout(timer);
        ok();
      };
    }).finally(() => {
      wakeUp = undefined;
      woken = false;
    });

  function launch(job: ClaimedJob): void {
    const controller = new AbortController();
    const stopWith = (reason: StopReason) => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const heartbeat = setInterval(
      () => {
        renewLease(deps.db, job.id, o.workerId, deps.now(), o.leaseMs).then(
          (held) => held || stopWith('lost'),
          (err: unknown) => deps.log.error(`media job ${job.id}: lease renewal failed`, err),
        );
      },
      Math.max(50, Math.floor(o.leaseMs / 3)),
    );
    const done = runJob(deps, o, job, controller.signal)
      .catch((err: unknown) => deps.log.error(`media job ${job.id} stopped on an unexpected error`, err))
      .finally(() => {
        clearInterval(heartbeat);
        running.delete(job.id);
        tries++;
        notify();
      });
    running.set(job.id, { job, controller, done });
  }

  async function claimOne(): Promise<boolean> {
    try {
      const job = await claimNextJob(deps.db, o.workerId, deps.now(), o.leaseMs);
      // Claimed while stopping: give it back now rather than let it wait out the lease.
      if (job && stopped) await releaseJob(deps.db, job.id, o.workerId, deps.now());
      else if (job) launch(job);
      return job !== null;
    } catch (err) {
      deps.log.error('media runner: claiming a job failed', err);
      return false;
    }
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      woken = false;
      if (running.size < o.concurrency && (await claimOne())) continue;
      if (!stopped) await nap();
    }
  }

  const abortVideo = async (videoId: string) => {
    const hits = [...running.values()].filter((r) => r.job.videoId === videoId);
    for (const r of hits) r.controller.abort('deleted' satisfies StopReason);
    // Bounded: a deletion's clean-up should not hang on a child that ignores its signal.
    await Promise.race([Promise.all(hits.map((r) => r.done)), new Promise((ok) => setTimeout(ok, 5000).unref())]);
  };
  const unregister = registerMediaHost({ media: deps.media, abortVideo, wake: notify });

  return {
    async start() {
      if (started) return;
      started = true;
      const now = deps.now();
      const removed = (await sweepLocalScratch(deps.db, deps.media, now)) + (await sweepAllVideoFolders(deps.db, deps.media, now));
      if (removed) deps.log.info(`media runner: removed ${removed} folder(s) left by an interrupted run`);
      loopDone = loop();
    },
    notify,
    async stop() {
      stopped = true;
      unregister();
      notify();
      const all = [...running.values()];
      for (const r of all) r.controller.abort('shutdown' satisfies StopReason);
      await Promise.all([loopDone, ...all.map((r) => r.done)]);
    },
    get tries() {
      return tries;
    },
  };
}
