import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { engineFor, insertVideo, Network, newDevice, useSyncServer } from './sync-harness';

// Issue 26, Low 3, on a device: the client runs the same mutations optimistically; the server's
// not_ready refusal of an action on another member's video that is not playable rolls it back.

const s = useSyncServer();

describe('a refused action on a video that is not ready is rolled back on the device', () => {
  it('shows the like and the comment at once, then takes both back with the reason, and the creator earns nothing', async () => {
    const videoId = await insertVideo(s.t.deps, s.bob.id, { title: 'Not ready after all' });
    const device = newDevice();
    const net = new Network();
    const te = engineFor(device.db, s.alice, s.http.url, net);
    s.running.push(te.engine);
    await te.engine.start();
    expect(await te.engine.sync()).toBe(true);
    expect(await device.db.videos.get(videoId)).toMatchObject({ media_status: 'ready', likes_count: 0 });

    // The device still holds it as ready; on the server it is being processed again.
    await s.t.deps.db.updateTable('videos').set({ media_status: 'processing' }).where('id', '=', videoId).execute();
    net.offline = true;
    const commentId = randomUUID();
    await te.engine.mutate('like', { videoId });
    await te.engine.mutate('addComment', { commentId, videoId, content: 'Looks great' });
    expect(await device.db.videos.get(videoId)).toMatchObject({ liked_by_me: true, likes_count: 1, comments_count: 1 });
    expect(await device.db.comments.get(commentId)).toBeDefined();

    net.offline = false;
    await te.engine.sync();
    expect(te.rejections.map((r) => [r.name, r.error.code, r.error.message])).toEqual([
      ['like', 'not_ready', 'This video is still being processed.'],
      ['addComment', 'not_ready', 'This video is still being processed.'],
    ]);
    expect(await device.db.videos.get(videoId)).toMatchObject({ liked_by_me: false, likes_count: 0, comments_count: 0 });
    expect(await device.db.comments.get(commentId)).toBeUndefined();
    expect(await device.db.outbox.count()).toBe(0);
    const points = await s.t.deps.db.selectFrom('scores').select('creator_points').where('user_id', '=', s.bob.id).executeTakeFirst();
    expect(points?.creator_points ?? 0).toBe(0);
  });
});
