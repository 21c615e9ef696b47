import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The projects whose files take a lock, one file of each at a time (tests/setup/one-file-at-a-time.ts). */
const LOCKED = new Set(['e2e', 'cluster']);

/** `others` with the `spaced` files spread evenly among them, each list in its own order. */
function spreadOut(spaced: TestSpecification[], others: TestSpecification[]): TestSpecification[] {
  if (spaced.length === 0 || others.length === 0) return [...spaced, ...others];
  const out: TestSpecification[] = [];
  const gap = others.length / spaced.length;
  let next = 0;
  others.forEach((file, i) => {
    while (next < spaced.length && next * gap <= i) out.push(spaced[next++]!);
    out.push(file);
  });
  return [...out, ...spaced.slice(next)];
}

/**
 * Spreads each locked project's files evenly through the run's order instead of leaving them in
 * one block: a block would hold every worker while all but one wait for the lock. Evenly spaced,
 * one of them runs while the other workers take the files between it and the next. Everything else
 * keeps vitest's own order.
 */
export class SpreadLockedFiles extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    let order = sorted.filter((f) => !LOCKED.has(f.project.name));
    for (const name of LOCKED) {
      order = spreadOut(
        sorted.filter((f) => f.project.name === name),
        order,
      );
    }
    return order;
  }
}
