import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../scripts/lib/cluster/start-cluster';
import { paddedMp4 } from '../bench/lib/video-file';
import { tusUpload } from '../bench/lib/tus-upload';
import { sha256 } from '../fixtures/tus-client';
import type { DbHandle } from '#db/connect';
import { clusterDatabase, logIn, signUpVerified, startTestCluster, uniqueEmail, until } from './cluster-session';

const MiB = 1024 * 1024;

/** The instances that answered each PATCH of upload `id` since `from` (the balancer's access log). */
function patchUpstreams(cluster: Cluster, from: number, id: string): string[] {
  return cluster
    .accessLog()
    .slice(from)
    .split('\n')
    .filter((l) => l.includes(`"PATCH /files/${id} `))
    .map((l) => /upstream=(\S+)/.exec(l)?.[1] ?? '?');
}

describe('uploads across two instances on S3', () => {
  let cluster: Cluster;
  let db: DbHandle;
  let token: string;
  let tmp: string;
  let first: { fileKey: string; data: Buffer } | undefined;

  const original = async (fileKey: string) => Buffer.from(await (await fetch(`${cluster.url}/media/${fileKey}`)).arrayBuffer());
  const videoRow = (videoId: string) =>
    until(`the video row of ${videoId}`, () => db.db.selectFrom('videos').select(['file_key', 'size_bytes']).where('id', '=', videoId).executeTakeFirst());

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'vidi-cluster-upload-'));
    cluster = await startTestCluster({ workers: 0 });
    db = clusterDatabase(cluster);
    const email = uniqueEmail('uploader');
    await signUpVerified(cluster, 'Uma Uploader', email);
    token = (await logIn(cluster.url, email)).token;
  });
  afterAll(async () => {
    await db?.close();
    await cluster?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('sends the PATCHes of one upload to A and B in turn through the balancer, and keeps the original byte for byte', async () => {
    const data = readFileSync(paddedMp4(join(tmp, 'turns.mp4'), 14 * MiB).file);
    const logFrom = cluster.accessLog().length;
    const { url, videoId } = await tusUpload({ origin: cluster.url, token, data, chunkSize: 5 * MiB, title: 'In turns' });

    // nginx writes a request's log line after the response has left, so the last PATCH's line can
    // still be on its way when the upload resolves: wait for it rather than read once.
    const id = url.split('/').at(-1)!;
    const upstreams = await until(
      'three PATCH lines in the access log',
      () => {
        const lines = patchUpstreams(cluster, logFrom, id);
        return lines.length >= 3 && lines;
      },
      5_000,
    ).catch(() => patchUpstreams(cluster, logFrom, id));
    expect(upstreams).toHaveLength(3);
    expect(new Set(upstreams)).toEqual(new Set(cluster.instances.map((i) => `127.0.0.1:${i.port}`)));
    expect(upstreams[1]).not.toBe(upstreams[0]);
    expect(upstreams[2]).not.toBe(upstreams[1]);

    const video = await videoRow(videoId);
    expect(Number(video.size_bytes)).toBe(data.length);
    expect(sha256(await original(video.file_key))).toBe(sha256(data));
    for (const instance of cluster.instances) {
      const served = await fetch(`${instance.url}/media/${video.file_key}`);
      expect(sha256(Buffer.from(await served.arrayBuffer())), instance.url).toBe(sha256(data));
    }
    first = { fileKey: video.file_key, data };
  });

  // Resuming an upload on B after A is killed mid-PATCH is tested without the balancer, with the
  // lock's release timed, in tests/s3/upload-across-instances.test.ts; what the balancer adds is this.
  it('sends every request to B while A is down (the refused connection is retried there)', async () => {
    const [a] = cluster.instances;
    await a!.kill9();
    for (let i = 0; i < 4; i++) expect((await fetch(`${cluster.url}/api/health`)).status).toBe(200);
    await a!.restart();
  });

  it("answers Range requests for an original with the file's bytes, and 416 past its end, on each instance and through the balancer", async () => {
    if (!first) throw new Error('needs the first test’s upload');
    const { fileKey, data } = first;
    const size = data.length;
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=1048576-1049599', 1_048_576, 1_049_599],
      ['bytes=-500', size - 500, size - 1],
      [`bytes=${size - 10}-`, size - 10, size - 1],
    ];
    // Each instance directly too: the balancer may keep away from A for 5 s after its restart.
    for (const origin of [cluster.url, ...cluster.instances.map((i) => i.url)]) {
      for (const [range, start, end] of cases) {
        const res = await fetch(`${origin}/media/${fileKey}`, { headers: { range } });
        expect(res.status, `${origin} ${range}`).toBe(206);
        expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
        expect(Buffer.from(await res.arrayBuffer()).equals(data.subarray(start, end + 1)), `${origin} ${range}`).toBe(true);
      }
      const past = await fetch(`${origin}/media/${fileKey}`, { headers: { range: `bytes=${size}-` } });
      expect(past.status, origin).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    }
  });
});
