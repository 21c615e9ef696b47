import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFaultProxy, type FaultOptions } from '../fault-proxy';
import { paddedMp4 } from '#tests/bench/lib/video-file';
import { tusUpload } from '#tests/bench/lib/tus-upload';
import { MutationModel, ReplayingPushClient } from '../lib/push-client';
import { checkExactlyOnce, likesOf } from '../lib/verify';
import type { SeededServer } from '../lib/seeded-server';

const MiB = 1024 * 1024;
/** Long enough to ride out any fault the proxy makes (and, in the crash test, a restart). */
export const PATIENT_RETRIES = [0, 100, 200, 500, 1000, 1000, 1000, 2000, 2000, 2000, 2000, 3000, 3000, 3000, 3000, 3000, 3000, 3000];

export interface UploadFaultsReport {
  uploads: number;
  identical: number;
  bytesEach: number;
  cuts: number;
  stalls: number;
  connections: number;
  /** Bytes sent client->server beyond the files' sizes (re-sends and HTTP framing). */
  overheadBytes: number;
  problems: string[];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * tus uploads through the fault proxy (cuts at random offsets in either direction, stalls, some
 * throttled): each must finish, and the stored file and its media URL must be byte-identical.
 */
export async function uploadsThroughFaults(s: SeededServer, o: { uploads: number; sizeMiB: number; faults?: FaultOptions }): Promise<UploadFaultsReport> {
  const size = Math.round(o.sizeMiB * MiB);
  const data = readFileSync(paddedMp4(join(s.dataDir, `fault-upload-${size}.mp4`), size).file);
  const want = sha256(data);
  // One cut is certain (mid second upload); the rest are random.
  const faults: FaultOptions = o.faults ?? {
    cutAtTotalUp: Math.floor(size * 1.5) + (o.uploads > 1 ? 0 : -size),
    cutRate: 0.6,
    cutBetween: [0, Math.min(size, 3 * MiB)],
    cutDirection: 'either',
    stallRate: 0.15,
    stallMs: 1200,
  };
  const proxy = await startFaultProxy(s.server.port, faults);
  const report: UploadFaultsReport = { uploads: o.uploads, identical: 0, bytesEach: size, cuts: 0, stalls: 0, connections: 0, overheadBytes: 0, problems: [] };
  try {
    const userId = s.users[0]!;
    const token = await s.token(userId);
    for (let i = 0; i < o.uploads; i++) {
      // Every other upload also crawls through a throttled link.
      proxy.throttle(i % 2 ? 4 * MiB : 0);
      const videoId = randomUUID();
      await tusUpload({ origin: proxy.url, token, data, videoId, chunkSize: MiB, retryDelays: PATIENT_RETRIES, title: `Fault upload ${i}` });
      const row = s.read((db) =>
        db
          .prepare<[string], { file_key: string; sha256: string; size_bytes: number }>('SELECT file_key, sha256, size_bytes FROM videos WHERE id = ?')
          .get(videoId),
      );
      if (!row) {
        report.problems.push(`upload ${i}: no video row for ${videoId}`);
        continue;
      }
      const stored = readFileSync(join(s.dataDir, 'media', row.file_key));
      const served = Buffer.from(await (await fetch(`${s.server.url}/media/${row.file_key}`)).arrayBuffer());
      if (sha256(stored) === want && sha256(served) === want && row.sha256 === want && Number(row.size_bytes) === size) report.identical++;
      else report.problems.push(`upload ${i}: stored/served bytes differ from the original`);
    }
  } finally {
    await proxy.close();
  }
  report.cuts = proxy.stats.cuts;
  report.stalls = proxy.stats.stalls;
  report.connections = proxy.stats.connections;
  report.overheadBytes = proxy.stats.bytesUp - size * o.uploads;
  return report;
}

export interface PushFaultsReport {
  clients: number;
  batches: number;
  mutations: number;
  replays: number;
  duplicatesAnswered: number;
  cuts: number;
  stalls: number;
  lost: number;
  doubled: number;
  problems: string[];
}

/**
 * Sync pushes through the fault proxy: several members push batches of like/unlike/comment
 * mutations; each failed request is replayed as is. Afterwards every mutation is in the database
 * exactly once.
 */
export async function pushesThroughFaults(
  s: SeededServer,
  o: { clients: number; batches: number; batchSize: number; faults?: FaultOptions },
): Promise<PushFaultsReport> {
  // Random cuts plus one certain one, so a run never passes without a replay.
  const faults: FaultOptions = o.faults ?? { cutAtTotalUp: 20_000, cutRate: 0.5, cutBetween: [0, 6000], cutDirection: 'either', stallRate: 0.1, stallMs: 800 };
  const proxy = await startFaultProxy(s.server.port, faults);
  const users = s.users.slice(1, 1 + o.clients);
  const model = new MutationModel(
    s.videos,
    s.read((db) => likesOf(db, users)),
  );
  const clients = await Promise.all(users.map(async (userId) => ({ userId, client: new ReplayingPushClient(() => proxy.url, await s.token(userId)) })));
  try {
    await Promise.all(
      clients.map(async ({ userId, client }) => {
        for (let b = 0; b < o.batches; b++) await client.push(model.next(userId, o.batchSize));
      }),
    );
  } finally {
    await proxy.close();
  }
  const check = s.read((db) => checkExactlyOnce(db, model, clients));
  return {
    clients: o.clients,
    batches: o.clients * o.batches,
    mutations: check.mutations,
    replays: clients.reduce((a, c) => a + c.client.stats.replays, 0),
    duplicatesAnswered: clients.reduce((a, c) => a + c.client.stats.duplicate, 0),
    cuts: proxy.stats.cuts,
    stalls: proxy.stats.stalls,
    lost: check.lost,
    doubled: check.doubled,
    problems: check.problems,
  };
}
