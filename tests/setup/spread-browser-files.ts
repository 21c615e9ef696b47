import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Spreads the e2e files evenly through the run's order instead of leaving them in one block: they
 * take one browser lock (tests/setup/one-browser-at-a-time.ts), so a block of them would hold every
 * worker while all but one wait. Evenly spaced, one e2e file runs while the other workers take the
 * files between it and the next. Everything else keeps vitest's own order.
 */
export class SpreadBrowserFiles extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const browser = sorted.filter((f) => f.project.name === 'e2e');
    const rest = sorted.filter((f) => f.project.name !== 'e2e');
    if (browser.length === 0 || rest.length === 0) return sorted;
    const spread: TestSpecification[] = [];
    const gap = rest.length / browser.length;
    let next = 0;
    rest.forEach((file, i) => {
      while (next < browser.length && next * gap <= i) spread.push(browser[next++]!);
      spread.push(file);
    });
    spread.push(...browser.slice(next));
    return spread;
  }
}
