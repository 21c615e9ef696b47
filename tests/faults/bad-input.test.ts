import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededServer, withServerLog, type SeededServer } from './lib/seeded-server';
import { fuzzEveryOperation } from './scenarios/bad-input';
import { record } from './lib/report';
import { FAULTS_SEED } from './lib/sizes';

describe('bad input: malformed requests to every operation', () => {
  let s: SeededServer;
  beforeAll(async () => {
    s = await seededServer(FAULTS_SEED);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('never answers 5xx and changes nothing', async () => {
    const r = await withServerLog(s, () => fuzzEveryOperation(s, { fastCheckRuns: 60 }));
    record('bad-input', { ...r, serverErrors: r.serverErrors.slice(0, 20) });
    expect(r.operations).toBeGreaterThan(10);
    expect(r.serverErrors).toEqual([]);
    expect(r.stateChanges).toEqual([]);
  });
});
