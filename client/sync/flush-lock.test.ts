import { describe, expect, it } from 'vitest';
import { withSyncLock } from './flush-lock';

describe('withSyncLock (in-process fallback)', () => {
  it('runs holders of one name one at a time, even when one fails', async () => {
    const log: string[] = [];
    const hold = (tag: string, fail = false) =>
      withSyncLock('db-a', async () => {
        log.push(`${tag}:in`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`${tag}:out`);
        if (fail) throw new Error(tag);
      });
    const results = await Promise.allSettled([hold('1'), hold('2', true), hold('3')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['1:in', '1:out', '2:in', '2:out', '3:in', '3:out']);
  });
});
