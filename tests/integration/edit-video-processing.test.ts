import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app';
import { freshTag, hashtagRow } from '../helpers/hashtag-videos';
import { until, useMediaJobsWorld } from '../helpers/media-jobs';

// A video still processing can be edited (its owner sees it), but only a ready video is filed under
// its tags (db/migrations/0019_discovery.ts): the edit files nothing, and the real runner's publish
// (server/media/jobs/run-job.ts) files it under the tags of the edited texts.

describe('editVideo on a video still processing', () => {
  const w = useMediaJobsWorld();

  it('is applied, files nothing, and the video is filed under its edited tags once ready', async () => {
    const [first, edited] = [freshTag('first'), freshTag('edited')];
    const { videoId } = await w.addVideo(w.clip);
    await w.t.deps.db
      .updateTable('videos')
      .set({ title: `Take #${first}` })
      .where('id', '=', videoId)
      .execute();
    const mutations = [{ id: 1, name: 'editVideo', args: { videoId, title: `Final #${edited}`, description: '' }, client_time: Date.now() }];
    const res = await call(w.t.app, 'POST', '/api/sync/push', { client_id: randomUUID(), mutations }, w.alice.token);
    expect(res.json.results).toEqual([{ id: 1, status: 'applied' }]);
    expect(await w.video(videoId)).toMatchObject({ media_status: 'processing', title: `Final #${edited}` });
    const filed = () => w.t.deps.db.selectFrom('video_hashtags').select('tag').where('video_id', '=', videoId).execute();
    expect(await filed()).toEqual([]);
    expect(await hashtagRow(w.t.deps.db, edited)).toBeUndefined();

    w.startRunner();
    await until('ready', async () => (await w.video(videoId))?.media_status === 'ready');
    expect((await filed()).map((r) => r.tag)).toEqual([edited]);
    expect((await hashtagRow(w.t.deps.db, edited))?.videos_count).toBe(1);
    expect(await hashtagRow(w.t.deps.db, first)).toBeUndefined();
  }, 60_000);
});
