import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citingSources, danglingReferences, ROOT, type Source } from './doc-references';
import { sourceComments } from './source-comments';

/** What the check says of a made-up page in docs/ or a made-up comment of a file in server/. */
const page = (text: string) => danglingReferences([{ file: 'docs/made-up.md', text, line: 1, markdown: true }]).map((p) => p.cites);
const comment = (text: string) => danglingReferences([{ file: 'server/made-up.ts', text, line: 1, markdown: false } satisfies Source]).map((p) => p.cites);

describe('docs and comments cite only what exists', () => {
  it('every path, line, anchor and section that docs/**/*.md, README.md and the code comments cite is there', () => {
    const sources = citingSources();
    expect(sources.length).toBeGreaterThan(1000);
    expect(danglingReferences(sources)).toEqual([]);
  });

  it('finds a missing file, a line past the end, a missing anchor or section, a file not in its row’s folder', () => {
    expect(comment('see server/uploads/gone.ts and server/uploads/tus-server.ts')).toEqual(['server/uploads/gone.ts']);
    expect(comment('docs/sync.md:99999 and docs/sync.md:3')).toEqual(['docs/sync.md:99999']);
    expect(comment('(define-mutation.ts:99999)')).toEqual(['define-mutation.ts:99999']);
    expect(page('[x](sync.md#no-such-heading), [y](sync.md#error-classes), [z](decisions/README.md)')).toEqual(['sync.md#no-such-heading']);
    expect(comment('(docs/pwa.md, "No such section"); docs/pwa.md, "Sync while closed"')).toEqual(['docs/pwa.md, "No such section"']);
    expect(page('| `server/sync/push.ts`, `conflict-retry.ts` | … |\n| `server/changes/write-tx.ts`, `conflict-retry.ts` | … |')).toEqual([
      'conflict-retry.ts',
    ]);
    expect(page('[gone](../server/gone.ts) and `docs/decisions/0004`, `docs/decisions/0999`')).toEqual(['docs/decisions/0999', '../server/gone.ts']);
  });

  it('leaves alone what is not a citation of this repository', () => {
    const notCitations = [
      'https://github.com/rocicorp/mono/blob/main/server/nope.ts', // a URL
      'tests/**/*.test.ts and {client,server}/x', // globs
      'media/{userId}/x, server/{id}/gone.ts, client/<area>/gone.tsx, docs/…', // placeholders
      'epic-stack’s tests/playwright-utils.ts', // another project's file
      'in the public repository rocicorp/mono, `apps/zbugs`',
      'server/a/b.ts, docs/x.md:99, `#client/x`', // examples
      'a client/server split',
      'node_modules/@tus/server/dist/handlers/HeadHandler.js',
    ];
    for (const text of notCitations) expect(comment(text), text).toEqual([]);
  });

  it('reads comments, not strings, regexes or templates', () => {
    const code = [
      "const url = 'https://example.com/x'; // first",
      'const re = /\\/files\\/[0-9a-f]+/g; /* second */',
      'const t = `a ${b /* third */} //not a comment`;',
      'const ratio = a / b; // fourth',
    ].join('\n');
    expect(sourceComments('x.ts', code).map((c) => [c.line, c.text])).toEqual([
      [1, '// first'],
      [2, '/* second */'],
      [3, '/* third */'],
      [4, '// fourth'],
    ]);
    const jsx = 'export const A = () => <p>see https://example.com // not a comment {/* fifth */}</p>;';
    expect(sourceComments('x.tsx', jsx).map((c) => c.text)).toEqual(['/* fifth */']);
  });
});

describe('decision records', () => {
  const folder = join(ROOT, 'docs', 'decisions');
  const records = readdirSync(folder).filter((f) => /^\d{4}-.*\.md$/.test(f));
  const readme = readFileSync(join(folder, 'README.md'), 'utf8');
  const STATUS = /^Date: (\d{4}-\d{2}-\d{2})\. Status: (Accepted|Superseded by \[(\d{4})\]\(\3-[\w-]+\.md\))(?:; amended by \[(\d{4})\]\(\4-[\w-]+\.md\))?[;.]/;

  it('each says under its title when it was taken and whether it stands, and the README’s table says the same', () => {
    expect(records.length).toBeGreaterThan(20);
    for (const file of records) {
      const number = file.slice(0, 4);
      const line = readFileSync(join(folder, file), 'utf8').split('\n')[2] ?? '';
      const m = STATUS.exec(line);
      expect(m, `${file}: "Date: YYYY-MM-DD. Status: …" on its third line`).not.toBeNull();
      const [, date, status, supersededBy, amendedBy] = m!;
      // A record is replaced or amended only by a later one.
      for (const later of [supersededBy, amendedBy]) if (later) expect(Number(later), file).toBeGreaterThan(Number(number));
      const row = readme.split('\n').find((r) => r.startsWith(`| [${number}](${file}) |`));
      expect(row, `${file}: a row in docs/decisions/README.md`).toBeDefined();
      const cells = row!.split(' | ');
      expect(cells[1], file).toBe(date);
      expect(cells[2], file).toContain(status!.startsWith('Superseded') ? `Superseded by [${supersededBy}]` : 'Accepted');
      if (amendedBy) expect(cells[2], file).toContain(`amended by [${amendedBy}]`);
    }
  });
});
