import { describe, expect, it } from 'vitest';
import { engineFor, insertVideo, Network, newDevice, useSyncServer } from './sync-harness';
import { createUser } from '../helpers/users';

// editVideo on the device (the real sync engine over Dexie, the real server on loopback): the card
// shows the new texts at once, offline and after a reload, the edit reaches the server once, other
// devices pull it, and an edit the server refuses is rolled back to the server's texts.

const s = useSyncServer();

function start(user: { id: string; token: string }, device = newDevice(), net = new Network()) {
  const te = engineFor(device.db, user, s.http.url, net);
  s.running.push(te.engine);
  return { ...te, device, net };
}

const serverTexts = (id: string) => s.t.deps.db.selectFrom('videos').select(['title', 'description']).where('id', '=', id).executeTakeFirstOrThrow();
const videoChanges = async (id: string) =>
  (await s.t.deps.db.selectFrom('change_log').select('entity_id').where('entity', '=', 'video').where('entity_id', '=', id).execute()).length;

describe('editVideo on the device', () => {
  it('shows an offline edit at once and after a reload, sends it once though the answer is lost, and other devices pull it', async () => {
    const videoId = await insertVideo(s.t.deps, s.alice.id, { title: 'Before' });
    const a = start(s.alice);
    await a.engine.start();
    await a.engine.sync();
    expect((await a.device.db.videos.get(videoId))?.title).toBe('Before');

    a.net.offline = true;
    await a.engine.mutate('editVideo', { videoId, title: 'After #beach', description: 'Sunset' });
    expect(await a.device.db.videos.get(videoId)).toMatchObject({ title: 'After #beach', description: 'Sunset' });
    // A reload reads the same: the edit is in IndexedDB with its queued mutation.
    const reloaded = a.device.reopen();
    expect(await reloaded.videos.get(videoId)).toMatchObject({ title: 'After #beach', description: 'Sunset' });
    expect(await reloaded.outbox.count()).toBe(1);
    reloaded.close();
    expect(await serverTexts(videoId)).toEqual({ title: 'Before', description: '' });

    const changesBefore = await videoChanges(videoId);
    a.net.offline = false;
    a.net.dropPushResponses = 1;
    await a.engine.sync();
    await a.engine.sync();
    expect(a.rejections).toEqual([]);
    expect(await a.device.db.outbox.count()).toBe(0);
    expect(await serverTexts(videoId)).toEqual({ title: 'After #beach', description: 'Sunset' });
    // Applied once: the retried push was answered as a duplicate and wrote nothing more.
    expect(await videoChanges(videoId)).toBe(changesBefore + 1);
    expect(a.net.requests.filter((r) => r === 'POST /api/sync/push').length).toBeGreaterThanOrEqual(2);
    expect(await a.device.db.server_videos.get(videoId)).toMatchObject({ title: 'After #beach', description: 'Sunset' });

    const b = start(s.bob);
    await b.engine.start();
    await b.engine.sync();
    expect(await b.device.db.videos.get(videoId)).toMatchObject({ title: 'After #beach', description: 'Sunset' });
  });

  it('rolls an edit the server refuses back to the server’s texts and says why', async () => {
    const videoId = await insertVideo(s.t.deps, s.alice.id, { title: 'Original' });
    const a = start(s.alice);
    await a.engine.start();
    await a.engine.sync();
    a.net.offline = true;
    await a.engine.mutate('editVideo', { videoId, title: 'Mine now', description: '' });
    expect((await a.device.db.videos.get(videoId))?.title).toBe('Mine now');

    // Meanwhile the video is no longer the member's on the server (its row moved to another member,
    // unknown to the device): the server refuses the edit as it refuses any video not the caller's.
    const other = await createUser(s.t.deps, { name: 'Other' });
    await s.t.deps.db.updateTable('videos').set({ user_id: other.id }).where('id', '=', videoId).execute();
    a.net.offline = false;
    await a.engine.sync();
    expect(a.rejections.map((r) => [r.name, r.error.code])).toEqual([['editVideo', 'not_found']]);
    expect(await a.device.db.outbox.count()).toBe(0);
    expect((await a.device.db.videos.get(videoId))?.title).toBe('Original');
    expect((await serverTexts(videoId)).title).toBe('Original');
  });
});
