import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { enqueueMediaJob } from '#server/media/jobs/queue';
import { notificationTitle } from '#sync/protocol/notification-text';
import { call } from '../helpers/test-app';
import { until, useMediaJobsWorld } from '../helpers/media-jobs';
import { createUser } from '../helpers/users';

// An @handle in a video's title or description tells that member once, when the video first
// becomes visible to others (ready), never its uploader; through the real runner and real ffmpeg,
// on both engines (docs/notifications.md, "mention").

describe("a mention in a video's title or description", () => {
  const w = useMediaJobsWorld();
  const notesOf = (userId: string) =>
    w.t.deps.db
      .selectFrom('notifications')
      .select(['kind', 'video_id', 'comment_id', 'actor_name', 'detail'])
      .where('user_id', '=', userId)
      .orderBy('kind')
      .execute();
  const handleOf = async (id: string) => (await w.t.deps.db.selectFrom('profiles').select('handle').where('id', '=', id).executeTakeFirstOrThrow()).handle;

  it('tells each member named once when the video is ready, never the uploader; processing it again tells nothing more', async () => {
    const [bob, cy, dee] = [
      await createUser(w.t.deps, { name: 'Bob' }),
      await createUser(w.t.deps, { name: 'Cy' }),
      await createUser(w.t.deps, { name: 'Dee' }),
    ];
    const { videoId } = await w.addVideo(w.clip);
    const title = `Sunset with @${await handleOf(bob.id)}`;
    const description = `Thanks @${await handleOf(cy.id)}, @${await handleOf(bob.id)} and me @${await handleOf(w.alice.id)}; @nobody_${randomUUID().slice(0, 6)}`;
    await w.t.deps.db.updateTable('videos').set({ title, description }).where('id', '=', videoId).execute();

    w.startRunner();
    // Not while it is processing: only its uploader sees it then.
    expect(await notesOf(bob.id)).toEqual([]);
    await until('ready', async () => ((await w.video(videoId))?.media_status === 'ready' ? true : null));

    const told = { kind: 'mention', video_id: videoId, comment_id: null, actor_name: 'Alice', detail: title };
    expect(await notesOf(bob.id)).toEqual([told]);
    expect(await notesOf(cy.id)).toEqual([told]);
    expect(await notesOf(dee.id)).toEqual([]);
    expect((await notesOf(w.alice.id)).filter((n) => n.video_id === videoId).map((n) => n.kind)).toEqual(['processed']);

    const pulled = await call(w.t.app, 'POST', '/api/sync/pull', { client_id: randomUUID(), cursor: null }, bob.token);
    const [item] = pulled.json.notifications;
    expect(item).toMatchObject({ kind: 'mention', video_id: videoId, comment_id: null });
    expect(notificationTitle(item)).toBe('Alice mentioned you in a video');

    const again = await enqueueMediaJob(w.t.deps.db, videoId, w.t.deps.now());
    await until('re-processed', async () => ((await w.job(again)).state === 'done' ? true : null));
    expect(await notesOf(bob.id)).toEqual([told]);
  }, 60_000);
});
