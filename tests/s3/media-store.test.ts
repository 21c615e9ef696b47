import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DiskMediaStore } from '#server/storage/disk-media-store';
import { MediaNotFound, type MediaStore } from '#server/storage/media-store';
import { S3MediaStore } from '#server/storage/s3-media-store';
import { createBucket, deleteBucket, type S3Env } from '../support/s3-gateway';

/**
 * The MediaStore contract (server/storage/media-store.ts), one suite run against both stores: the
 * disk under a temp folder and S3 on a fresh bucket of the run's gateway (tests/setup/s3.ts).
 */

const bytesOf = async (s: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(s).arrayBuffer());
const text = async (s: ReadableStream<Uint8Array>) => Buffer.from(await bytesOf(s)).toString();

interface Harness {
  store: MediaStore;
  /** A folder on the store's own file system for moveFileIn's source. */
  localDir: string;
  /** The S3 store's settings (another instance on the same bucket). */
  storage?: ReturnType<typeof s3Storage>;
  close(): Promise<void>;
}

function s3Storage(env: S3Env, bucket: string) {
  return {
    kind: 's3' as const,
    bucket,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    forcePathStyle: true,
  };
}

async function diskHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'vidi-store-'));
  mkdirSync(join(dir, 'media'));
  mkdirSync(join(dir, 'local'));
  return {
    store: new DiskMediaStore(join(dir, 'media')),
    localDir: join(dir, 'local'),
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function s3Harness(): Promise<Harness> {
  const env = inject('s3Env');
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  await createBucket(env, bucket);
  const dir = mkdtempSync(join(tmpdir(), 'vidi-store-'));
  mkdirSync(join(dir, 'local'));
  const storage = s3Storage(env, bucket);
  const store = new S3MediaStore({ storage, scratchDir: join(dir, 'scratch') });
  return {
    store,
    storage,
    localDir: join(dir, 'local'),
    close: async () => {
      await store.close();
      await deleteBucket(env, bucket);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.each([
  ['disk', diskHarness],
  ['s3', s3Harness],
] as const)('MediaStore contract: %s', (_kind, open) => {
  let h: Harness;
  let store: MediaStore;
  beforeAll(async () => {
    h = await open();
    store = h.store;
  });
  afterAll(() => h.close());

  it('stat and read of a missing key: null and MediaNotFound', async () => {
    expect(await store.stat('u0/nothing.mp4')).toBeNull();
    await expect(store.read('u0/nothing.mp4')).rejects.toBeInstanceOf(MediaNotFound);
    await expect(store.read('u0/nothing.mp4', { start: 0, end: 9 })).rejects.toBeInstanceOf(MediaNotFound);
  });

  it('putOnce creates once; a second put of the key keeps the first bytes and says so', async () => {
    expect(await store.putOnce('u1/poster-a.jpg', Buffer.from('first bytes'), 'image/jpeg')).toBe(true);
    expect(await store.putOnce('u1/poster-a.jpg', Buffer.from('other bytes!'), 'image/jpeg')).toBe(false);
    expect(await store.stat('u1/poster-a.jpg')).toEqual({ size: 11 });
    expect(await text(await store.read('u1/poster-a.jpg'))).toBe('first bytes');
  });

  it('putOnce of the same key at the same time: the bytes whole', async () => {
    const bytes = randomBytes(64 * 1024);
    const created = await Promise.all([1, 2, 3, 4].map(() => store.putOnce('u1/race.jpg', bytes, 'image/jpeg')));
    // S3's conditional PUT and the disk store's link() each let exactly one writer create it.
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(Buffer.from(await bytesOf(await store.read('u1/race.jpg'))).equals(bytes)).toBe(true);
  });

  it('read of byte ranges: first byte, middle, last byte, whole', async () => {
    const body = Buffer.from('0123456789abcdefghij');
    await store.putOnce('u1/range.mp4', body, 'video/mp4');
    expect(await text(await store.read('u1/range.mp4', { start: 0, end: 0 }))).toBe('0');
    expect(await text(await store.read('u1/range.mp4', { start: 5, end: 12 }))).toBe('56789abc');
    expect(await text(await store.read('u1/range.mp4', { start: 19, end: 19 }))).toBe('j');
    expect(await text(await store.read('u1/range.mp4', { start: 0, end: 19 }))).toBe(body.toString());
    expect(await text(await store.read('u1/range.mp4'))).toBe(body.toString());
  });

  it('an empty object has size 0 and reads as nothing', async () => {
    expect(await store.putOnce('u1/empty.vtt', new Uint8Array(0), 'text/vtt')).toBe(true);
    expect(await store.stat('u1/empty.vtt')).toEqual({ size: 0 });
    expect((await bytesOf(await store.read('u1/empty.vtt'))).length).toBe(0);
  });

  it('moveFileIn stores the file under the key and takes it away', async () => {
    const bytes = randomBytes(300 * 1024);
    const local = join(h.localDir, 'upload.bin');
    writeFileSync(local, bytes);
    await store.moveFileIn(local, 'u2/123-clip.mp4', 'video/mp4');
    expect(existsSync(local)).toBe(false);
    expect(await store.stat('u2/123-clip.mp4')).toEqual({ size: bytes.length });
    expect(Buffer.from(await bytesOf(await store.read('u2/123-clip.mp4'))).equals(bytes)).toBe(true);
  });

  it('withLocalFile hands over a local file with the bytes', async () => {
    await store.putOnce('u2/src.mp4', Buffer.from('source video'), 'video/mp4');
    let seen = '';
    const result = await store.withLocalFile('u2/src.mp4', async (path) => {
      seen = path;
      return readFileSync(path, 'utf8');
    });
    expect(result).toBe('source video');
    // On S3 the download is gone afterwards; on disk it is the object itself.
    expect(existsSync(seen)).toBe(store.kind === 'disk');
  });

  it('scratchFolder is empty every time; discardScratch removes it (and a missing one is fine)', async () => {
    const dir = await store.scratchFolder('u3/v1/.job-1');
    writeFileSync(join(dir, 'left.txt'), 'left over');
    const again = await store.scratchFolder('u3/v1/.job-1');
    expect(again).toBe(dir);
    expect(existsSync(join(again, 'left.txt'))).toBe(false);
    await store.discardScratch('u3/v1/.job-1');
    expect(existsSync(dir)).toBe(false);
    await store.discardScratch('u3/v1/.job-1');
  });

  it('publishScratch replaces the folder with the scratch tree, nested paths kept', async () => {
    await store.putOnce('u4/v1/j1/old.m4s', Buffer.from('stale'), 'video/iso.segment');
    await store.putOnce('u4/v1/j1/v360/old.m4s', Buffer.from('stale'), 'video/iso.segment');
    const dir = await store.scratchFolder('u4/v1/.j1');
    mkdirSync(join(dir, 'v360'));
    writeFileSync(join(dir, 'master.m3u8'), '#EXTM3U\n');
    writeFileSync(join(dir, 'poster.jpg'), 'jpeg');
    for (let i = 1; i <= 6; i++) writeFileSync(join(dir, 'v360', `seg_0000${i}.m4s`), `segment ${i}`);
    await store.publishScratch('u4/v1/.j1', 'u4/v1/j1');

    expect(existsSync(dir)).toBe(false);
    expect((await store.listFiles('u4/v1/j1')).sort()).toEqual(['u4/v1/j1/master.m3u8', 'u4/v1/j1/poster.jpg']);
    expect((await store.listFiles('u4/v1/j1/v360')).sort()).toEqual([1, 2, 3, 4, 5, 6].map((i) => `u4/v1/j1/v360/seg_0000${i}.m4s`));
    expect(await store.stat('u4/v1/j1/old.m4s')).toBeNull();
    expect(await store.stat('u4/v1/j1/v360/old.m4s')).toBeNull();
    expect(await text(await store.read('u4/v1/j1/v360/seg_00004.m4s'))).toBe('segment 4');
  });

  it('listFiles: only the folder’s own objects, filtered by name prefix; a missing folder is empty', async () => {
    await store.putOnce('u5/poster-v1-aa.jpg', Buffer.from('1'), 'image/jpeg');
    await store.putOnce('u5/poster-v1-bb.png', Buffer.from('2'), 'image/png');
    await store.putOnce('u5/poster-v2-cc.jpg', Buffer.from('3'), 'image/jpeg');
    await store.putOnce('u5/9-clip.mp4', Buffer.from('4'), 'video/mp4');
    await store.putOnce('u5/v1/captions-x.vtt', Buffer.from('5'), 'text/vtt');
    expect((await store.listFiles('u5')).sort()).toEqual(['u5/9-clip.mp4', 'u5/poster-v1-aa.jpg', 'u5/poster-v1-bb.png', 'u5/poster-v2-cc.jpg']);
    expect((await store.listFiles('u5', 'poster-v1-')).sort()).toEqual(['u5/poster-v1-aa.jpg', 'u5/poster-v1-bb.png']);
    expect(await store.listFiles('u5', 'nothing-')).toEqual([]);
    expect(await store.listFiles('no-such-user')).toEqual([]);
  });

  it('listFolders: the folders directly in a folder, or at the top', async () => {
    await store.putOnce('u6/v1/j1/master.m3u8', Buffer.from('a'), 'application/vnd.apple.mpegurl');
    await store.putOnce('u6/v2/captions-y.vtt', Buffer.from('b'), 'text/vtt');
    await store.putOnce('u6/file.mp4', Buffer.from('c'), 'video/mp4');
    expect((await store.listFolders('u6')).sort()).toEqual(['v1', 'v2']);
    expect(await store.listFolders('u6/v1')).toEqual(['j1']);
    expect(await store.listFolders('u6/v2')).toEqual([]);
    expect(await store.listFolders('missing')).toEqual([]);
    expect(await store.listFolders('')).toEqual(expect.arrayContaining(['u1', 'u6']));
  });

  it('delete removes exactly the keys; missing ones are fine', async () => {
    await store.putOnce('u7/a.jpg', Buffer.from('a'), 'image/jpeg');
    await store.putOnce('u7/b.jpg', Buffer.from('b'), 'image/jpeg');
    expect(await store.stat('u7/a.jpg')).not.toBeNull();
    await store.delete(['u7/a.jpg', 'u7/never.jpg']);
    expect(await store.stat('u7/a.jpg')).toBeNull();
    await expect(store.read('u7/a.jpg')).rejects.toBeInstanceOf(MediaNotFound);
    expect(await store.stat('u7/b.jpg')).toEqual({ size: 1 });
    await store.delete([]);
  });

  it('deleteFolder removes the tree, not a sibling whose name starts the same; a missing one is fine', async () => {
    await store.putOnce('u8/v1/j1/master.m3u8', Buffer.from('m'), 'application/vnd.apple.mpegurl');
    await store.putOnce('u8/v1/j1/v360/seg_00001.m4s', Buffer.from('s'), 'video/iso.segment');
    await store.putOnce('u8/v1/captions-z.vtt', Buffer.from('c'), 'text/vtt');
    await store.putOnce('u8/v10/keep.vtt', Buffer.from('k'), 'text/vtt');
    expect(await store.stat('u8/v1/j1/master.m3u8')).not.toBeNull();
    await store.deleteFolder('u8/v1');
    expect(await store.stat('u8/v1/j1/master.m3u8')).toBeNull();
    expect(await store.stat('u8/v1/j1/v360/seg_00001.m4s')).toBeNull();
    expect(await store.stat('u8/v1/captions-z.vtt')).toBeNull();
    expect(await store.listFolders('u8')).toEqual(['v10']);
    expect(await store.stat('u8/v10/keep.vtt')).toEqual({ size: 1 });
    await store.deleteFolder('u8/v1');
  });
});

describe('S3MediaStore specifics', () => {
  let h: Harness;
  let store: S3MediaStore;
  beforeAll(async () => {
    h = await s3Harness();
    store = h.store as S3MediaStore;
  });
  afterAll(() => h.close());

  it('keeps objects under media/ with the Content-Type of their name', async () => {
    await store.putOnce('u1/poster-v-1.png', Buffer.from('png'), 'image/png');
    const dir = await store.scratchFolder('u1/v/.j');
    writeFileSync(join(dir, 'master.m3u8'), '#EXTM3U\n');
    mkdirSync(join(dir, 'v360'));
    writeFileSync(join(dir, 'v360', 'seg_00001.m4s'), 'seg');
    await store.publishScratch('u1/v/.j', 'u1/v/j');
    const typeOf = async (key: string) => (await store.client.send(new HeadObjectCommand({ Bucket: store.bucket, Key: `media/${key}` }))).ContentType;
    expect(await typeOf('u1/poster-v-1.png')).toBe('image/png');
    expect(await typeOf('u1/v/j/master.m3u8')).toBe('application/vnd.apple.mpegurl');
    expect(await typeOf('u1/v/j/v360/seg_00001.m4s')).toBe('video/iso.segment');
  });

  it('a size cached by one instance after another deleted the object: the read says MediaNotFound, then stat says null', async () => {
    const other = new S3MediaStore({ storage: h.storage!, scratchDir: join(h.localDir, 'other-scratch') });
    try {
      await store.putOnce('u2/gone.mp4', Buffer.from('soon gone'), 'video/mp4');
      expect(await other.stat('u2/gone.mp4')).toEqual({ size: 9 });
      await store.delete(['u2/gone.mp4']);
      // Sizes never change for a key, so `other` still believes it; the GET is what tells.
      expect(await other.stat('u2/gone.mp4')).toEqual({ size: 9 });
      await expect(other.read('u2/gone.mp4', { start: 0, end: 3 })).rejects.toBeInstanceOf(MediaNotFound);
      expect(await other.stat('u2/gone.mp4')).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('listScratch names the scratch folders on this machine by their keys, not the downloads', async () => {
    await store.scratchFolder('u5/v1/.tmp-job-1');
    await store.scratchFolder('u5/v2/.tmp-job-2');
    await store.withLocalFile('u1/poster-v-1.png', async () => {
      expect((await store.listScratch()).sort()).toEqual(['u5/v1/.tmp-job-1', 'u5/v2/.tmp-job-2']);
    });
    await store.discardScratch('u5/v1/.tmp-job-1');
    expect(await store.listScratch()).toEqual(['u5/v2/.tmp-job-2']);
    await store.discardScratch('u5/v2/.tmp-job-2');
  });

  it('withLocalFile of a missing key: MediaNotFound, nothing left behind', async () => {
    let called = false;
    await expect(
      store.withLocalFile('u3/none.mp4', async () => {
        called = true;
      }),
    ).rejects.toBeInstanceOf(MediaNotFound);
    expect(called).toBe(false);
  });

  it('lists and deletes folders of more than one page (1000 keys)', async () => {
    const keys = Array.from({ length: 1010 }, (_, i) => `u4/v/j/seg_${String(i).padStart(5, '0')}.m4s`);
    for (let i = 0; i < keys.length; i += 25) await Promise.all(keys.slice(i, i + 25).map((k) => store.putOnce(k, Buffer.from('s'), 'video/iso.segment')));
    expect((await store.listFiles('u4/v/j')).length).toBe(1010);
    await store.deleteFolder('u4/v');
    expect(await store.listFiles('u4/v/j')).toEqual([]);
    expect(await store.listFolders('u4')).toEqual([]);
  }, 120_000);
});
