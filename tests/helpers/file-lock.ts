import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder's pid, or undefined when the lock is free or its holder died (a killed worker). */
function holder(held: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(held, 'pid'), 'utf8'));
    return pid && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A lock between processes on one machine: a folder made with mkdir, which succeeds for one caller
 * only, holding the owner's pid so a lock left by a dead process is taken over. Resolves with the
 * function that releases it.
 */
export async function acquireFileLock(dir: string, pollMs = 200): Promise<() => void> {
  const held = join(dir, 'held');
  for (;;) {
    try {
      mkdirSync(held);
      writeFileSync(join(held, 'pid'), String(process.pid));
      return () => rmSync(held, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    // Just made (no pid written yet) or held by a live process: wait; else the holder died.
    await sleep(pollMs);
    if (holder(held) === undefined) {
      await sleep(pollMs);
      if (holder(held) === undefined) rmSync(held, { recursive: true, force: true });
    }
  }
}
