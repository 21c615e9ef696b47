import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededServer, withServerLog, type SeededServer } from './lib/seeded-server';
import { pushesThroughFaults, uploadsThroughFaults } from './scenarios/network';
import { record } from './lib/report';
import { FAULTS_SEED } from './lib/sizes';

describe('network faults: cuts at random byte offsets, stalls, throttling', () => {
  let s: SeededServer;
  beforeAll(async () => {
    s = await seededServer(FAULTS_SEED);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('tus uploads through the fault proxy always end byte-identical', async () => {
    const r = await withServerLog(s, () => uploadsThroughFaults(s, { uploads: 6, sizeMiB: 8 }));
    record('network-uploads', r);
    expect(r.problems).toEqual([]);
    expect(r.identical).toBe(6);
    expect(r.cuts).toBeGreaterThan(0);
  });

  it('sync pushes replayed after cuts end exactly once', async () => {
    const r = await withServerLog(s, () => pushesThroughFaults(s, { clients: 4, batches: 25, batchSize: 20 }));
    record('network-pushes', r);
    expect(r.problems).toEqual([]);
    expect(r.lost).toBe(0);
    expect(r.doubled).toBe(0);
    expect(r.mutations).toBe(4 * 25 * 20);
    expect(r.cuts).toBeGreaterThan(0);
    expect(r.replays).toBeGreaterThan(0);
  });
});
