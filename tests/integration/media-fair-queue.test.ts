import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLongClip, until, useMediaJobsWorld } from '../helpers/media-jobs';
import { createUser, type TestUser } from '../helpers/users';
import { markAllProcessed } from '../helpers/media-processed';
import { queryPlan, planText, recordQueries } from '../helpers/query-plan';
import { listen, runUpload, serverError, videoMetadata, type LoopbackServer } from '../fixtures/tus-client';
import { claimNextJob, countPendingJobs } from '#server/media/jobs/queue';
import type { ProcessVideoFn } from '#server/media/jobs/types';
import { processVideo } from '#server/media/processing/process-video';

// The media queue takes members in turn (docs/reliability.md, "The media job runner"): a burst of
// one member holds another member's first video back by at most the job already running.

describe('media queue: members in turn (real database, real HTTP uploads, real ffmpeg)', () => {
  const w = useMediaJobsWorld();
  let srv: LoopbackServer;
  let longClip: string;

  beforeAll(async () => {
    srv = await listen(w.t);
    // Several seconds of ffmpeg each, so the burst's first job is still running when the others arrive.
    longClip = await makeLongClip(join(w.t.dataDir, 'fair-long.mp4'));
  }, 60_000);
  afterAll(async () => {
    await srv?.close();
  });

  const upload = (u: TestUser, file: string, metadata = videoMetadata()) =>
    runUpload({ baseUrl: srv.url, token: u.token, bytes: readFileSync(file), metadata }).then(() => metadata.videoId!);

  it("claims another member's job second after a burst of three, and refuses the burst's fourth at finish", async () => {
    const ana = await createUser(w.t.deps, { name: 'Ana Burst' });
    const ben = await createUser(w.t.deps, { name: 'Ben First' });
    const claimed: Array<{ owner: string; at: number }> = [];
    const watched: ProcessVideoFn = (input) => {
      claimed.push({ owner: input.source.includes(ben.id) ? 'ben' : 'ana', at: Date.now() });
      return processVideo(input);
    };
    w.startRunner({ processVideo: watched });

    const burst = [];
    for (let i = 0; i < 3; i++) burst.push(await upload(ana, longClip));
    const benFinished = Date.now();
    const benVideo = await upload(ben, w.clip);
    const refused = await upload(ana, longClip).then(
      () => null,
      (e: unknown) => serverError(e),
    );
    expect(refused, "Ana's 4th upload was accepted").not.toBeNull();
    expect(refused).toMatchObject({ status: 422, body: { error: { code: 'too_many_processing' } } });
    expect(await w.t.deps.db.selectFrom('videos').select('id').where('user_id', '=', ana.id).execute()).toHaveLength(3);

    await until("Ben's video ready", async () => (await w.video(benVideo))?.media_status === 'ready', 90_000);
    const benAt = claimed.findIndex((c) => c.owner === 'ben');
    const readyIn = Date.now() - benFinished;
    const waited = claimed[benAt]!.at - benFinished;
    console.log(
      `fair queue: Ben's first video was claimed ${benAt + 1}${benAt === 0 ? 'st' : 'nd'}, after ${benAt} of Ana's burst, ` +
        `${waited} ms after his upload finished; ready after ${readyIn} ms (claims: ${claimed.map((c) => c.owner).join(', ')})`,
    );
    expect(claimed.map((c) => c.owner).slice(0, 2)).toContain('ben');
    expect(benAt).toBeLessThanOrEqual(1);
    await markAllProcessed(w.t.deps);
  }, 120_000);

  it("orders the queue by turn: each member's first job before anyone's second, on two concurrent claimers too", async () => {
    const ana = await createUser(w.t.deps, { name: 'Ana Claims' });
    const ben = await createUser(w.t.deps, { name: 'Ben Claims' });
    const cleo = await createUser(w.t.deps, { name: 'Cleo Claims' });
    const owner = new Map<string, string>();
    const add = async (u: TestUser, name: string) => owner.set((await w.addVideo(w.clip, u)).jobId, name);
    for (const n of ['a1', 'a2', 'a3']) await add(ana, n);
    await add(ben, 'b1');
    await add(ben, 'b2');
    await add(cleo, 'c1');
    const now = w.t.deps.now();
    // Two claimers at once (on PostgreSQL each skips the row the other locked) take the two heads first.
    const firstTwo = await Promise.all([claimNextJob(w.t.deps.db, 'x', now, 60_000), claimNextJob(w.t.deps.db, 'y', now, 60_000)]);
    const rest = [];
    for (;;) {
      const c = await claimNextJob(w.t.deps.db, 'z', now, 60_000);
      if (!c) break;
      rest.push(c);
    }
    const names = (list: Array<{ id: string } | null>) => list.map((c) => owner.get(c!.id));
    expect(names(firstTwo).sort()).toEqual(['a1', 'b1']);
    expect(names(rest)).toEqual(['c1', 'a2', 'b2', 'a3']);
    await markAllProcessed(w.t.deps);
  });

  it('claims and counts by index: no table scan and no sort', async () => {
    const ana = await createUser(w.t.deps, { name: 'Ana Plans' });
    await w.addVideo(w.clip, ana);
    const { plugin, queries } = recordQueries(w.t.deps.db);
    const db = w.t.deps.db.withPlugin(plugin);
    expect(await countPendingJobs(db, ana.id)).toBe(1);
    expect(await claimNextJob(db, 'plans', w.t.deps.now(), 60_000)).not.toBeNull();
    const bad: string[] = [];
    for (const q of queries.filter((q) => /media_jobs/.test(q.sql))) {
      const plan = await queryPlan(w.t.deps.db, q);
      if (plan.some((s) => s.kind === 'scan' || s.kind === 'sort')) bad.push(`${planText(plan)} <- ${q.sql}`);
    }
    expect(queries.length).toBeGreaterThanOrEqual(3);
    expect(bad).toEqual([]);
    await markAllProcessed(w.t.deps);
  });
});
