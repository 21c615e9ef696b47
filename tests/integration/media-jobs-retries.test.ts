import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { until, useMediaJobsWorld } from '../helpers/media-jobs';
import { openDatabase } from '#db/connect';
import { claimNextJob } from '#server/media/jobs/queue';
import type { ProcessVideoFn } from '#server/media/jobs/types';
import { processVideo } from '#server/media/processing/process-video';

describe('media jobs: claims, leases and retries (the real database, real ffmpeg, real files)', () => {
  const w = useMediaJobsWorld();
  const { createRunner, startRunner, addVideo, video, job, videoFolder, tempFolders } = w;

  it('two claimers never take the same job: 12 concurrent claims for 6 jobs get each job once', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 6; i++) ids.add((await addVideo(w.clip)).jobId);
    const now = w.t.deps.now();
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimNextJob(w.t.deps.db, `claimer-${i % 2}`, now, 60_000)));
    const won = claims.filter((c) => c !== null).map((c) => c!.id);
    expect(won.sort()).toEqual([...ids].sort());
    // Give them back for the next test.
    await w.t.deps.db.updateTable('media_jobs').set({ state: 'done' }).where('id', 'in', won).execute();
  });

  it('claimers on separate connection pools (as in separate processes) take each due job once, expired leases included', async () => {
    // Three handles on the server's database: on PostgreSQL three pools of 10 connections, so the
    // claims really run at once; on SQLite three connections to the file.
    const handles = [1, 2, 3].map(() => openDatabase(w.t.deps.config.databaseUrl));
    const ids: string[] = [];
    try {
      for (let i = 0; i < 24; i++) ids.push((await addVideo(w.clip)).jobId);
      const now = w.t.deps.now();
      // A third of them were held by a worker that died: their leases ran out.
      await w.t.deps.db
        .updateTable('media_jobs')
        .set({ state: 'running', attempts: 1, worker_id: 'dead', lease_until: now - 1 })
        .where('id', 'in', ids.slice(0, 8))
        .execute();
      const claims = await Promise.all(Array.from({ length: 60 }, (_, i) => claimNextJob(handles[i % 3]!.db, `claimer-${i % 6}`, now, 60_000)));
      const won = claims.filter((c) => c !== null);
      expect(won.map((c) => c.id).sort()).toEqual([...ids].sort());
      const rows = await w.t.deps.db.selectFrom('media_jobs').select(['id', 'worker_id', 'attempts']).where('id', 'in', ids).execute();
      // The row names the claimer each job was handed to, and counts one more try.
      const winner = new Map(claims.flatMap((c, i) => (c ? [[c.id, `claimer-${i % 6}`] as const] : [])));
      for (const r of rows) expect(r.worker_id).toBe(winner.get(r.id));
      expect(
        rows
          .filter((r) => r.attempts === 2)
          .map((r) => r.id)
          .sort(),
      ).toEqual(ids.slice(0, 8).sort());
      await w.t.deps.db.updateTable('media_jobs').set({ state: 'done' }).where('id', 'in', ids).execute();
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  });

  it('two runners process 6 jobs concurrently, each exactly once', async () => {
    const calls = new Map<string, number>();
    const counted: ProcessVideoFn = (input) => {
      calls.set(input.source, (calls.get(input.source) ?? 0) + 1);
      return processVideo(input);
    };
    const added: Array<{ videoId: string; jobId: string }> = [];
    for (let i = 0; i < 6; i++) added.push(await addVideo(w.clip));
    const started = Date.now();
    const a = startRunner({ processVideo: counted, workerId: 'runner-a' });
    const b = startRunner({ processVideo: counted, workerId: 'runner-b' });
    await until(
      'all ready',
      async () => {
        const rows = await w.t.deps.db
          .selectFrom('videos')
          .select('media_status')
          .where(
            'id',
            'in',
            added.map((x) => x.videoId),
          )
          .execute();
        return rows.every((r) => r.media_status === 'ready');
      },
      90_000,
    );
    console.log(`6 jobs on 2 runners in ${Date.now() - started} ms (a: ${a.tries}, b: ${b.tries})`);
    expect([...calls.values()]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(a.tries + b.tries).toBe(6);
    expect(a.tries).toBeGreaterThan(0);
    expect(b.tries).toBeGreaterThan(0);
    for (const x of added) expect(await job(x.jobId)).toMatchObject({ state: 'done', attempts: 1 });
  }, 120_000);

  it('re-claims a job whose lease expired (its worker died) and removes the dead try’s temp folder at start-up', async () => {
    const { videoId, jobId } = await addVideo(w.clip);
    // A worker claimed it and died mid-way, leaving half an output; its lease ran out 9 s ago.
    const dead = await claimNextJob(w.t.deps.db, 'dead-worker', w.t.deps.now(), 1000);
    expect(dead?.id).toBe(jobId);
    await w.t.deps.db
      .updateTable('media_jobs')
      .set({ lease_until: w.t.deps.now() - 9000 })
      .where('id', '=', jobId)
      .execute();
    const stale = join(videoFolder(videoId), `.tmp-${jobId}-1`);
    mkdirSync(join(stale, 'v360'), { recursive: true });
    writeFileSync(join(stale, 'v360', 'seg-0.m4s'), 'half');
    const runner = createRunner({ workerId: 'heir' });
    await runner.start();
    expect(existsSync(stale)).toBe(false);
    await until('ready', async () => (await video(videoId))?.media_status === 'ready');
    expect(await job(jobId)).toMatchObject({ state: 'done', attempts: 2, worker_id: 'heir' });
    expect(tempFolders(videoId)).toEqual([]);
  }, 60_000);

  it('a job whose worker died on every try is failed, not tried a fourth time', async () => {
    const { videoId, jobId } = await addVideo(w.clip);
    // Three claims whose workers all died: the lease ran out each time.
    await w.t.deps.db
      .updateTable('media_jobs')
      .set({ state: 'running', attempts: 3, lease_until: w.t.deps.now() - 1, worker_id: 'dead' })
      .where('id', '=', jobId)
      .execute();
    let calls = 0;
    startRunner({ processVideo: (input) => (calls++, processVideo(input)) });
    const j = await until('failed', async () => ((await job(jobId)).state === 'failed' ? job(jobId) : null));
    expect(j.attempts).toBe(4);
    expect(calls).toBe(0);
    expect(await video(videoId)).toMatchObject({ media_status: 'failed', media_error: 'processing was interrupted too many times' });
  });

  it('a clip whose tries meet passing faults is tried 3 times with the backoff between, then fails with the reason; nothing is left behind', async () => {
    const corrupt = join(w.t.dataDir, 'corrupt.mp4');
    const good = readFileSync(w.clip);
    // A real header, then noise: ffprobe reads it, the decoder cannot.
    writeFileSync(corrupt, Buffer.concat([good.subarray(0, 4096), Buffer.alloc(good.length - 4096, 0x5a)]));
    const at: number[] = [];
    // The first two tries meet a passing fault (retried); the third reads the file, whose fault is permanent.
    const timed: ProcessVideoFn = (input) => {
      if (input.source.endsWith(fileKey) && at.push(Date.now()) < 3) return Promise.reject(new Error('storage unavailable for now'));
      return processVideo(input);
    };
    const { videoId, jobId } = await addVideo(corrupt);
    const fileKey = (await video(videoId))!.file_key;
    startRunner({ processVideo: timed });
    const j = await until('failed', async () => {
      const row = await job(jobId);
      return row.state === 'failed' ? row : null;
    });
    const v = await video(videoId);
    console.log(`3 tries at +0, +${at[1]! - at[0]!}, +${at[2]! - at[0]!} ms; reason: ${v?.media_error}`);
    expect(j.attempts).toBe(3);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(150);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(300);
    expect(v).toMatchObject({ media_status: 'failed', media_key: null });
    expect(v!.media_error).toMatch(/^the video /);
    expect(j.last_error).toContain(v!.media_error);
    expect(tempFolders(videoId)).toEqual([]);
  }, 60_000);
});
