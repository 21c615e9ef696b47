import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app';
import { until, useMediaJobsWorld } from '../helpers/media-jobs';
import { createUser } from '../helpers/users';
import { freshTag, hashtagRow } from '../helpers/hashtag-videos';

// A video is on its tags' pages from its first ready on, not while it is processing: through the
// real upload row, the real runner and real ffmpeg (server/media/jobs/run-job.ts files it).

describe('a processing video and its hashtags', () => {
  const w = useMediaJobsWorld();

  it('is on no tag page until the runner makes it ready, then on each of its tags', async () => {
    const viewer = await createUser(w.t.deps, { name: 'Viewer' });
    const [a, b] = [freshTag('first'), freshTag('second')];
    const { videoId } = await w.addVideo(w.clip);
    await w.t.deps.db
      .updateTable('videos')
      .set({ title: `Morning #${a}`, description: `and #${b}` })
      .where('id', '=', videoId)
      .execute();
    const pageOf = async (tag: string) => (await call(w.t.app, 'GET', `/api/hashtags/${tag}`, undefined, viewer.token)).json;

    expect(await pageOf(a)).toEqual({ tag: a, videos_count: 0, items: [], next_cursor: null });
    expect(await hashtagRow(w.t.deps.db, b)).toBeUndefined();

    w.startRunner();
    await until('ready', async () => ((await w.video(videoId))?.media_status === 'ready' ? true : null));
    for (const tag of [a, b]) {
      const page = await pageOf(tag);
      expect(page).toMatchObject({ tag, videos_count: 1, next_cursor: null });
      expect(page.items.map((v: { id: string; media_status: string }) => [v.id, v.media_status])).toEqual([[videoId, 'ready']]);
    }
  }, 60_000);
});
