import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createUser, type TestUser } from '../helpers/users';
import { listen, runUpload, serverError, videoMetadata, type LoopbackServer } from '../fixtures/tus-client';
import { mp4Faststart } from '../fixtures/videos';
import { mediaNames, tusObjects } from './upload-storage';

// At most 3 videos of one member wait for or are in processing; a 4th upload is refused when it
// finishes, and nothing of it is kept (docs/reliability.md, "The media job runner"). No runner runs
// here, so every finished upload's job stays queued.

const LIMIT = 3;
const REFUSAL = 'You have 3 videos being processed. Wait for one to finish before uploading another.';

describe('videos in processing per member', () => {
  let t: TestApp;
  let srv: LoopbackServer;
  let bytes: Buffer;

  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_MIN_FREE_MIB: '0' });
    srv = await listen(t);
    bytes = readFileSync(await mp4Faststart());
  });
  afterAll(async () => {
    await srv?.close();
    await t?.close();
  });

  const upload = (u: TestUser, metadata = videoMetadata()) => runUpload({ baseUrl: srv.url, token: u.token, bytes, metadata });
  const pendingJobs = async (u: TestUser) =>
    (
      await t.deps.db
        .selectFrom('media_jobs')
        .innerJoin('videos', 'videos.id', 'media_jobs.video_id')
        .select('media_jobs.id')
        .where('videos.user_id', '=', u.id)
        .where('media_jobs.state', 'in', ['queued', 'running'])
        .execute()
    ).length;
  const uploadRow = (url: string | null) => t.deps.db.selectFrom('uploads').selectAll().where('id', '=', url!.split('/').pop()!).executeTakeFirstOrThrow();
  /** The upload id of the last tus creation by `u` (the refused run's URL is not kept by tus-js-client). */
  const lastUploadOf = (u: TestUser) =>
    t.deps.db.selectFrom('uploads').selectAll().where('user_id', '=', u.id).orderBy('created_at', 'desc').executeTakeFirstOrThrow();

  it('refuses a 4th upload at its finish with 422 too_many_processing, keeping nothing of it; a processed video frees a place', async () => {
    const ana = await createUser(t.deps, { name: 'Ana Burst' });
    for (let i = 0; i < LIMIT; i++) await upload(ana);
    expect(await pendingJobs(ana)).toBe(LIMIT);
    const originals = await mediaNames(t.deps, ana.id);
    expect(originals).toHaveLength(LIMIT);

    const fourth = videoMetadata();
    const e = await upload(ana, fourth).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e, 'the 4th upload was accepted').not.toBeNull();
    const { status, body } = serverError(e);
    expect(status).toBe(422);
    expect(body.error).toEqual({ code: 'too_many_processing', message: REFUSAL });
    // Nothing changed: no video, no job, no stored original, no tus leftovers; the upload row says why.
    expect(await t.deps.db.selectFrom('videos').select('id').where('id', '=', fourth.videoId!).executeTakeFirst()).toBeUndefined();
    expect(await pendingJobs(ana)).toBe(LIMIT);
    expect(await mediaNames(t.deps, ana.id)).toEqual(originals);
    const refused = await lastUploadOf(ana);
    expect(refused).toMatchObject({ video_id: fourth.videoId, status: 'rejected', reason: REFUSAL });
    expect(await tusObjects(t.deps, refused.id)).toEqual([]);

    // Another member is not held back by Ana's queue.
    const ben = await createUser(t.deps, { name: 'Ben First' });
    const benRun = await upload(ben);
    expect((await uploadRow(benRun.url)).status).toBe('completed');

    // One of Ana's videos is processed: her next upload is taken.
    await t.deps.db
      .updateTable('media_jobs')
      .set({ state: 'done' })
      .where(
        'video_id',
        '=',
        (await t.deps.db.selectFrom('videos').select('id').where('user_id', '=', ana.id).orderBy('created_at').executeTakeFirstOrThrow()).id,
      )
      .execute();
    const again = await upload(ana, videoMetadata());
    expect((await uploadRow(again.url)).status).toBe('completed');
    expect(await pendingJobs(ana)).toBe(LIMIT);
  }, 60_000);

  it('lets one of three concurrent finishes through when one place is left', async () => {
    const cleo = await createUser(t.deps, { name: 'Cleo Race' });
    for (let i = 0; i < LIMIT - 1; i++) await upload(cleo);
    const runs = await Promise.allSettled(Array.from({ length: 3 }, () => upload(cleo)));
    const refused = runs.filter((r) => r.status === 'rejected').map((r) => serverError((r as PromiseRejectedResult).reason));
    expect(runs.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual([
      [422, 'too_many_processing'],
      [422, 'too_many_processing'],
    ]);
    expect(await pendingJobs(cleo)).toBe(LIMIT);
    expect(await mediaNames(t.deps, cleo.id)).toHaveLength(LIMIT);
  }, 60_000);
});
