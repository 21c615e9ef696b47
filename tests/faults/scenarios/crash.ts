import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { startFaultProxy } from '../fault-proxy';
import { paddedMp4 } from '#tests/bench/lib/video-file';
import { tusUpload } from '#tests/bench/lib/tus-upload';
import { MutationModel, ReplayingPushClient } from '../lib/push-client';
import { runSeed, seededRandom } from '#tests/helpers/seeded-random';
import { checkExactlyOnce, integrityCheck, likesOf } from '../lib/verify';
import { PATIENT_RETRIES } from './network';
import type { SeededServer } from '../lib/seeded-server';

const MiB = 1024 * 1024;

export interface CrashReport {
  /** Given back as FAULTS_CRASH_SEED, replays this run's kill moments. */
  seed: number;
  kills: number;
  clients: number;
  mutations: number;
  replays: number;
  duplicatesAnswered: number;
  uploadIdentical: boolean;
  uploadBytes: number;
  lost: number;
  doubled: number;
  integrity: string;
  problems: string[];
}

/**
 * kill -9 of the server while members push and one upload crawls in (through a throttling proxy so
 * the kill lands mid-file), then a restart on the same port; repeated. The clients ride it out by
 * replaying (pushes) and resuming (tus). Afterwards: every acknowledged mutation present once,
 * the upload byte-identical, and SQLite's integrity_check ok. The kill moments
 * (and the mix of mutations the clients draw) come from one seeded generator: printed, and taken
 * from FAULTS_CRASH_SEED when set to replay a run.
 */
export async function crashDuringWrites(
  s: SeededServer,
  o: { kills: number; clients: number; batchSize: number; uploadMiB: number; upMs?: number },
): Promise<CrashReport> {
  const seed = runSeed('FAULTS_CRASH_SEED', 'crash scenario');
  const random = seededRandom(seed);
  const size = Math.round(o.uploadMiB * MiB);
  const data = readFileSync(paddedMp4(join(s.dataDir, `crash-upload-${size}.mp4`), size).file);
  const want = createHash('sha256').update(data).digest('hex');
  // Slow enough that the upload spans the kills: about (kills + 1) * upMs at this rate.
  const upMs = o.upMs ?? 2500;
  const proxy = await startFaultProxy(s.server.port, { throttleBps: Math.max(256 * 1024, Math.floor(size / (((o.kills + 1) * upMs) / 1000))) });
  const users = s.users.slice(1, 1 + o.clients);
  const model = new MutationModel(
    s.videos,
    s.read((db) => likesOf(db, users)),
    random,
  );
  const clients = await Promise.all(
    users.map(async (userId) => ({
      userId,
      client: new ReplayingPushClient(() => s.server.url, await s.token(userId), { timeoutMs: 5000, giveUpAfterMs: 120_000 }),
    })),
  );
  const uploader = await s.token(s.users[0]!);
  const videoId = randomUUID();
  let stop = false;
  const problems: string[] = [];

  const pushing = Promise.all(
    clients.map(async ({ userId, client }) => {
      while (!stop) await client.push(model.next(userId, o.batchSize));
    }),
  );
  const upload = tusUpload({ origin: proxy.url, token: uploader, data, videoId, chunkSize: MiB, retryDelays: PATIENT_RETRIES, title: 'Crash upload' });
  try {
    for (let k = 0; k < o.kills; k++) {
      await sleep(upMs * (0.6 + random() * 0.4));
      await s.server.kill9();
      await sleep(150);
      await s.server.restart();
    }
    await upload;
    // A last stretch of writes on the healthy server, then let the clients finish their batch.
    await sleep(500);
  } finally {
    stop = true;
    await pushing.catch((e: unknown) => problems.push(`push client failed: ${(e as Error).message}`));
    await proxy.close();
  }

  await s.server.stop();
  const db = new Database(s.dbPath, { readonly: true });
  try {
    const integrity = integrityCheck(db);
    const check = checkExactlyOnce(db, model, clients);
    const row = db.prepare<[string], { file_key: string }>('SELECT file_key FROM videos WHERE id = ?').get(videoId);
    const stored = row ? readFileSync(join(s.dataDir, 'media', row.file_key)) : null;
    const uploadIdentical = !!stored && createHash('sha256').update(stored).digest('hex') === want;
    if (!uploadIdentical) problems.push('the upload did not end byte-identical');
    return {
      seed,
      kills: o.kills,
      clients: o.clients,
      mutations: check.mutations,
      replays: clients.reduce((a, c) => a + c.client.stats.replays, 0),
      duplicatesAnswered: clients.reduce((a, c) => a + c.client.stats.duplicate, 0),
      uploadIdentical,
      uploadBytes: size,
      lost: check.lost,
      doubled: check.doubled,
      integrity,
      problems: [...problems, ...check.problems],
    };
  } finally {
    db.close();
    await s.server.restart();
  }
}
