import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededServer, type SeededServer } from '../faults/lib/seeded-server';
import { fuzzEveryOperation } from '../faults/scenarios/bad-input';
import { mixedLoad } from '../faults/scenarios/load';
import { pushesThroughFaults, uploadsThroughFaults } from '../faults/scenarios/network';
import { crashDuringWrites } from '../faults/scenarios/crash';
import { record } from '../faults/lib/report';
import { CI_SEED, loadSeconds } from '../faults/lib/sizes';

// The bounded subset of the reliability suite (tests/faults) that runs with every `npm test`:
// the same scenarios with short durations and few repetitions, on one small seeded server.
describe('reliability, bounded (full suite: npm run test:faults)', () => {
  let s: SeededServer;
  beforeAll(async () => {
    s = await seededServer(CI_SEED);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('bad input: malformed requests to every operation get no 5xx and change nothing', async () => {
    const r = await fuzzEveryOperation(s, { fastCheckRuns: 4 });
    record('ci-bad-input', { ...r, serverErrors: r.serverErrors.slice(0, 20) });
    expect(r.serverErrors).toEqual([]);
    expect(r.stateChanges).toEqual([]);
  }, 120_000);

  it('load: a short mixed run gets only 2xx answers', async () => {
    const r = await mixedLoad(s, { seconds: loadSeconds(4), connections: 8 });
    record('ci-load', r);
    expect(r.errors).toBe(0);
    expect(r.non2xx).toBe(0);
    expect(r.serverMutations).toBeGreaterThanOrEqual(r.mutationsAcknowledged);
  }, 60_000);

  it('network faults: uploads end byte-identical and pushes exactly once', async () => {
    const up = await uploadsThroughFaults(s, { uploads: 2, sizeMiB: 2, faults: { cutAtTotalUp: 3 * 1024 * 1024, cutRate: 0.5, cutBetween: [0, 1024 * 1024], cutDirection: 'up', stallRate: 0.2, stallMs: 300 } });
    record('ci-network-uploads', up);
    expect(up.problems).toEqual([]);
    expect(up.identical).toBe(2);
    expect(up.cuts).toBeGreaterThan(0);
    const push = await pushesThroughFaults(s, { clients: 3, batches: 6, batchSize: 10 });
    record('ci-network-pushes', push);
    expect(push.problems).toEqual([]);
    expect(push.lost + push.doubled).toBe(0);
    expect(push.cuts).toBeGreaterThan(0);
  }, 120_000);

  it('crash: kill -9 mid-write loses and doubles nothing and leaves the database intact', async () => {
    const r = await crashDuringWrites(s, { kills: 1, clients: 2, batchSize: 5, uploadMiB: 3, upMs: 1500 });
    record('ci-crash', r);
    expect(r.problems).toEqual([]);
    expect(r.integrity).toBe('ok');
    expect(r.uploadIdentical).toBe(true);
    expect(r.lost + r.doubled).toBe(0);
  }, 120_000);
});
