import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under `dir`, as paths relative to it with `/` separators (a job's output tree). */
export async function filesUnder(dir: string, relative = ''): Promise<string[]> {
  const entries = await readdir(join(dir, relative), { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries) {
    const rel = relative ? `${relative}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await filesUnder(dir, rel)));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

/** Runs `fn` over the items with at most `limit` at a time; rejects with the first failure. */
export async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    // After a failure no new item starts: the caller is about to clean up what they would use.
    while (next < items.length && !failed) {
      const item = items[next++] as T;
      await fn(item).catch((e: unknown) => {
        failed = true;
        throw e;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
