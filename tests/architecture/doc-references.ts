import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { headingsOf, sectionKey, type Headings } from './markdown-headings';
import { shellComments, sourceComments } from './source-comments';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The top-level folders of the repository: a path that starts with one of them is a citation. */
const TOP_FOLDERS = ['client', 'server', 'sync', 'db', 'scripts', 'tests', 'docs', '.ci'];
/** Where code comments are read. */
const CODE_FOLDERS = ['client', 'server', 'sync', 'db', 'scripts', 'tests'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'test-results']);
/** An extension a citation may leave out (an import path, a migration's name). */
const IMPLIED = ['', '.ts', '.tsx', '.js', '.mjs', '.md', '.json', '.sh', '/index.ts'];

/**
 * A repository path: a top-level folder then path characters. Not after a path character (so
 * `../server/x` and `@scope/server/x` are left to their own rules), nor when a placeholder or a glob
 * follows (`server/{id}`, `tests/**`, `client/<area>`, `docs/…`).
 */
const REPO_PATH = new RegExp(String.raw`(?<![\w./@~$-])#?((?:${TOP_FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[\w./-]*)(?![\w{<*…-])`, 'g');
/** A file name cited with a line: `define-mutation.ts:9`, `docs/x.md:99`. */
const FILE_LINE = /(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.(?:ts|tsx|js|mjs|md|json|sh|css)):(\d+)\b/g;
/** A markdown link's target (not an image's URL alone, not a reference definition). */
const MD_LINK = /\]\(([^)\s]+)\)/g;
/** A quoted section right after a cited page: `docs/pwa.md, "Feed"`, `[pwa.md](pwa.md) ("Feed")`. */
const SECTION_AFTER = /^`?\)?\s?[,;]?\s*\(?\s*"([^"]{1,80})"/;
/** Another project's file (`epic-stack's tests/playwright-utils.ts`), or a URL's path. */
const FOREIGN_BEFORE = /(?:['’]s|:\/\/[^\s]*|\bin (?:the public repository )?[\w-]+\/[\w.-]+,?)\s*`?$/;

export interface Problem {
  at: string;
  cites: string;
  problem: string;
}

export interface Source {
  /** The citing file, from the repository root. */
  file: string;
  /** Text to read citations from, and the line where it starts. */
  text: string;
  line: number;
  markdown: boolean;
}

function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED_FOLDERS.has(name)) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return walk(path, keep);
    return keep(name) ? [path] : [];
  });
}

/** Comment markers at line starts turned to spaces, so a quote may wrap onto the next comment line. */
const unmark = (text: string) => text.replace(/^(\s*)(\/\/+|\/\*+|\*+\/?|#+)/gm, (_m, indent: string, mark: string) => indent + ' '.repeat(mark.length));

/** Every text that may cite a path: docs/**\/*.md and README.md whole, and the comments of the code. */
export function citingSources(): Source[] {
  const pages = ['README.md', ...walk('docs', (n) => n.endsWith('.md'))];
  const sources: Source[] = pages.map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8'), line: 1, markdown: true }));
  for (const file of CODE_FOLDERS.flatMap((d) => walk(d, (n) => /\.(tsx?|m?js|sh)$/.test(n)))) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const comments = file.endsWith('.sh') ? shellComments(text) : sourceComments(file, text);
    for (const c of comments) sources.push({ file, text: unmark(c.text), line: c.line, markdown: false });
  }
  return sources;
}

/**
 * The file a cited path names, allowing an implied extension, or a decision record by its number
 * (`docs/decisions/0004`); null when nothing is there.
 */
function resolve(path: string): string | null {
  const clean = path.replace(/\/+$/, '');
  for (const ext of IMPLIED) if (existsSync(join(ROOT, clean + ext))) return clean + ext;
  const [folder, name] = [dirname(clean), basename(clean)];
  if (!/^\d{4}$/.test(name) || !existsSync(join(ROOT, folder))) return null;
  const record = readdirSync(join(ROOT, folder)).find((f) => f.startsWith(`${name}-`));
  return record ? join(folder, record) : null;
}

/**
 * A path that is not a citation: an example with a one-letter name (`server/a/b.ts`, `client/x`), or
 * two top-level folders written as prose ("client/server").
 */
function notACitation(path: string): boolean {
  const parts = path.replace(/\/+$/, '').split('/');
  if (parts.some((p) => /^[a-z](\.\w+)?$/i.test(p))) return true;
  return parts.length === 2 && parts.every((p) => TOP_FOLDERS.includes(p));
}

const texts = new Map<string, string>();
const read = (file: string) => texts.get(file) ?? texts.set(file, readFileSync(join(ROOT, file), 'utf8')).get(file)!;
const headings = new Map<string, Headings>();
const headingsIn = (file: string) => headings.get(file) ?? headings.set(file, headingsOf(read(file))).get(file)!;

let basenames: Map<string, string[]> | undefined;
/** Files by name, for a `name.ts:LINE` cited without its folder. */
function byName(name: string): string[] {
  basenames ??= TOP_FOLDERS.flatMap((d) => walk(d, () => true)).reduce(
    (m, f) => m.set(basename(f), [...(m.get(basename(f)) ?? []), f]),
    new Map<string, string[]>(),
  );
  return basenames.get(name) ?? [];
}

const under = new Map<string, string[]>();
const filesUnder = (folder: string) =>
  under.get(folder) ??
  under
    .set(
      folder,
      walk(folder, () => true),
    )
    .get(folder)!;

class Checker {
  readonly problems: Problem[] = [];
  constructor(private readonly source: Source) {}

  private at(index: number): string {
    const line = this.source.line + (this.source.text.slice(0, index).match(/\n/g)?.length ?? 0);
    return `${this.source.file}:${line}`;
  }

  private fail(index: number, cites: string, problem: string): void {
    this.problems.push({ at: this.at(index), cites, problem });
  }

  /** A cited page's quoted section, if one follows the citation that ends at `end`. */
  private section(file: string, end: number, cites: string): void {
    const m = SECTION_AFTER.exec(this.source.text.slice(end));
    if (!m || !file.endsWith('.md')) return;
    const wanted = sectionKey(m[1]!);
    if (!headingsIn(file).names.some((h) => h === wanted || h.startsWith(wanted))) this.fail(end, `${cites}, "${m[1]}"`, `no heading "${m[1]}" in ${file}`);
  }

  repoPaths(): void {
    for (const m of this.source.text.matchAll(REPO_PATH)) {
      const path = m[1]!.replace(/\.+$/, '');
      if (notACitation(path) || FOREIGN_BEFORE.test(this.source.text.slice(Math.max(0, m.index - 60), m.index))) continue;
      const file = resolve(path);
      if (!file) this.fail(m.index, path, 'no such file or folder');
      else this.section(file, m.index + m[0].length, path);
    }
  }

  fileLines(): void {
    for (const m of this.source.text.matchAll(FILE_LINE)) {
      const [, name, line] = m;
      if (notACitation(name!)) continue;
      const near = join(dirname(this.source.file), name!);
      const candidates = name!.includes('/') ? [resolve(name!) ?? resolve(near)] : existsSync(join(ROOT, near)) ? [near] : byName(name!);
      const found = candidates.filter((c): c is string => !!c);
      if (found.length === 0) this.fail(m.index, `${name}:${line}`, 'no such file');
      else if (found.every((f) => read(f).split('\n').length < Number(line))) this.fail(m.index, `${name}:${line}`, 'past the end of the file');
    }
  }

  /**
   * A table row lists a folder's files after one full path (`server/sync/push-statements.ts`,
   * `push-statements-postgres.ts`): a source file's name in backticks, without a folder, must be in
   * (or under) the folder of a full path before it in the same row. Built files (.js, .json) are
   * left alone, and so is prose, where the folder is often said in a heading.
   */
  siblingNames(): void {
    for (const row of this.source.text.matchAll(/^\|.*$/gm)) {
      const folders: string[] = [];
      for (const m of row[0].matchAll(/`([\w.-]+\.(?:ts|tsx|md|sh|css))`|`#?((?:client|server|sync|db|scripts|tests|docs)\/[\w./-]*)`/g)) {
        const resolved = m[2] ? resolve(m[2]) : null;
        if (resolved) folders.push(statSync(join(ROOT, resolved)).isDirectory() ? resolved : dirname(resolved));
        else if (m[1] && folders.length > 0 && !folders.some((f) => filesUnder(f).some((path) => basename(path) === m[1]))) {
          this.fail(row.index + m.index, m[1], `not under ${folders.join(', ')}, the folder cited before it in its table row`);
        }
      }
    }
  }

  markdownLinks(): void {
    for (const m of this.source.text.matchAll(MD_LINK)) {
      const target = m[1]!;
      if (/^[a-z][\w+.-]*:/i.test(target)) continue; // https:, mailto:
      const [pathPart, anchor] = target.split('#') as [string, string | undefined];
      const file = pathPart === '' ? this.source.file : normalize(join(dirname(this.source.file), decodeURI(pathPart)));
      if (relative(ROOT, join(ROOT, file)).startsWith('..')) {
        this.fail(m.index, target, 'outside the repository');
        continue;
      }
      const found = resolve(file);
      if (!found) this.fail(m.index, target, 'no such file or folder');
      else if (anchor && found.endsWith('.md') && !headingsIn(found).anchors.has(anchor))
        this.fail(m.index, target, `no heading with anchor #${anchor} in ${found}`);
      else if (found.endsWith('.md')) this.section(found, m.index + m[0].length, target);
    }
  }
}

/** Every citation that names a missing file, a line past a file's end, or a missing heading. */
export function danglingReferences(sources = citingSources()): Problem[] {
  return sources.flatMap((source) => {
    const checker = new Checker(source);
    checker.repoPaths();
    checker.fileLines();
    if (source.markdown) {
      checker.markdownLinks();
      checker.siblingNames();
    }
    return checker.problems;
  });
}
