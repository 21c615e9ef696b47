import { describe, expect, it } from 'vitest';
import { FairPool } from './send-pool';

/** A task that runs until released, recording when it started. */
function gate(started: string[], name: string) {
  let release = () => {};
  const done = new Promise<void>((ok) => (release = ok));
  return { task: () => (started.push(name), done), release: () => release() };
}

describe('the push sender’s pool', () => {
  it('runs at most `limit` at a time and at most `perKey` for one member, taking the members in turn', async () => {
    const pool = new FairPool(3, 2);
    const started: string[] = [];
    const slow = [1, 2, 3, 4].map((i) => gate(started, `slow${i}`));
    const runs = slow.map((g) => pool.run('slow', g.task));
    const quick = gate(started, 'quick');
    const quickRun = pool.run('quick', quick.task);
    // Slow's first two hold two slots; its third waits for its own turn, and Quick goes past it.
    expect(started).toEqual(['slow1', 'slow2', 'quick']);
    quick.release();
    await quickRun;
    expect(started).toEqual(['slow1', 'slow2', 'quick']);
    slow[0]!.release();
    await runs[0];
    await Promise.resolve();
    expect(started).toEqual(['slow1', 'slow2', 'quick', 'slow3']);
    for (const g of slow) g.release();
    await Promise.all(runs);
    expect(started).toHaveLength(5);
  });

  it('settles as the task does, and a failure frees its slot', async () => {
    const pool = new FairPool(1, 1);
    await expect(pool.run('a', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(pool.run('a', () => Promise.resolve(7))).resolves.toBe(7);
  });
});
