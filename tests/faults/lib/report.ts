import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS_DIR } from '#tests/helpers/browser';

/** Prints a scenario's figures and keeps them as test-results/faults/<name>.json for docs/reliability.md. */
export function record(name: string, figures: object): void {
  const dir = join(ARTIFACTS_DIR, 'faults');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ at: new Date().toISOString(), ...figures }, null, 2));
  console.log(`[faults] ${name}: ${JSON.stringify(figures)}`);
}
