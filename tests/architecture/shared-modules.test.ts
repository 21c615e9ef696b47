import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The folders of the projects that run with `isolate: false` (vitest.config.ts, ISOLATE_SERVER_FILES). */
const SHARED_MODULE_FOLDERS = ['tests/api', 'tests/integration', 'tests/postgres', 'tests/s3'];

/**
 * What outlives a file when a worker's files share their modules (docs/layout.md, "Server suites
 * share their modules"): a mocked module, an environment variable or a global set by one file is
 * what the next file in the same worker finds.
 */
const LEAKS: Array<[RegExp, string]> = [
  [/\bvi\.(?:mock|doMock|stubGlobal|stubEnv)\(/, 'mocks a module or stubs a global'],
  [/\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*(?:=(?!=)|\?\?=|\|\|=)/, 'sets an environment variable'],
  [/\bdelete\s+process\.env\b/, 'removes an environment variable'],
  [/['"]fake-indexeddb\/auto['"]/, 'installs fake-indexeddb as a global (pass its factory to Dexie)'],
  [/\bglobalThis\.\w+\s*=(?!=)/, 'sets a global'],
];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(folder, f));
}

describe('the server suites share their modules across files', () => {
  it('no file there mocks, stubs, sets an environment variable or installs a global', () => {
    const found: string[] = [];
    for (const file of SHARED_MODULE_FOLDERS.flatMap(sourceFiles)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [pattern, what] of LEAKS) if (pattern.test(text)) found.push(`${relative(ROOT, join(ROOT, file))} ${what}`);
    }
    expect(found).toEqual([]);
  });

  it('recognises each leak it looks for', () => {
    const samples = [
      "vi.mock('x')",
      'process.env.PORT = "1"',
      "process.env['A'] ??= 'b'",
      'delete process.env.X',
      "import 'fake-indexeddb/auto';",
      'globalThis.fetch = f',
    ];
    expect(samples.map((s) => LEAKS.some(([p]) => p.test(s)))).toEqual(samples.map(() => true));
    expect(LEAKS.some(([p]) => p.test('if (process.env.CI === "true") {}'))).toBe(false);
  });
});
