import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededServer, withServerLog, type SeededServer } from './lib/seeded-server';
import { crashDuringWrites } from './scenarios/crash';
import { record } from './lib/report';
import { FAULTS_SEED } from './lib/sizes';

describe('crash: kill -9 of the server during uploads and pushes', () => {
  let s: SeededServer;
  beforeAll(async () => {
    s = await seededServer(FAULTS_SEED);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('loses and doubles nothing acknowledged, resumes the upload, and keeps the database intact', async () => {
    const r = await withServerLog(s, () => crashDuringWrites(s, { kills: 3, clients: 3, batchSize: 10, uploadMiB: 12 }));
    record('crash', r);
    if (r.problems.length) console.log(s.server.output().slice(-4000));
    expect(r.problems).toEqual([]);
    expect(r.integrity).toBe('ok');
    expect(r.uploadIdentical).toBe(true);
    expect(r.lost).toBe(0);
    expect(r.doubled).toBe(0);
    expect(r.mutations).toBeGreaterThan(0);
  });
});
