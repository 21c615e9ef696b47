import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededServer, withServerLog, type SeededServer } from './lib/seeded-server';
import { mixedLoad } from './scenarios/load';
import { record } from './lib/report';
import { FAULTS_SEED, loadSeconds } from './lib/sizes';

describe('load: mixed feed reads and pushes from many clients', () => {
  let s: SeededServer;
  beforeAll(async () => {
    s = await seededServer(FAULTS_SEED);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers every request with 2xx, counts every acknowledged mutation, and keeps memory bounded', async () => {
    const connections = 32;
    const r = await withServerLog(s, () => mixedLoad(s, { seconds: loadSeconds(45), connections }));
    record('load', r);
    expect(r.requests).toBeGreaterThan(100);
    expect(r.errors).toBe(0);
    expect(r.non2xx).toBe(0);
    expect(r.serverMutations).toBeGreaterThanOrEqual(r.mutationsAcknowledged);
    // At most the pushes in flight when the run stopped were applied without an answer.
    expect(r.serverMutations - r.mutationsAcknowledged).toBeLessThanOrEqual(connections * 5);
    expect(r.rssMaxMiB).toBeLessThan(768);
  });
});
