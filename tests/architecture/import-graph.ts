import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE_ROOTS = ['client', 'server', 'sync', 'db'];
// Static imports and re-exports (not type-only ones: they leave nothing behind at run time) and import().
const IMPORT = /(?:^(?:import|export)(?!\s+type\b)[^;]*?\bfrom\s*|\bimport\s*\(\s*|^import\s+)(['"])([^'"]+)\1/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.gen.ts') ? [path] : [];
  });
}

/** The repository path an import names (`#client/x` or a relative path), or null for a package. */
function target(file: string, spec: string): string | null {
  if (spec.startsWith('#')) return spec.slice(1);
  if (spec.startsWith('.')) return normalize(join(dirname(file), spec));
  return null;
}

/** Every source file (tests and generated files aside) with the repository paths it imports. */
export function importsByFile(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of SOURCE_ROOTS.flatMap(sourceFiles)) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => target(file, m[2]!)).filter((t): t is string => t !== null);
    out.set(file, targets);
  }
  return out;
}

/** The folder a path belongs to: a file's folder, or the path itself when it names a folder (its index). */
function folderOf(path: string): string {
  try {
    if (statSync(join(ROOT, path)).isDirectory()) return path;
  } catch {
    // A module path without its extension: its folder.
  }
  return dirname(path);
}

/**
 * The unit a folder belongs to: its top two levels (server/uploads, client/sync, sync/mutations), or
 * three for a client feature (client/features/feed). A unit's own subfolders are its inside: a
 * feature's components and its api may know each other.
 */
export function unitOf(folder: string): string {
  const parts = folder.split('/');
  return parts.slice(0, parts[1] === 'features' ? 3 : 2).join('/');
}

/** Imports between units: unit -> the other units its files import. */
export function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of importsByFile()) {
    const from = unitOf(dirname(file));
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const t of targets) {
      const to = unitOf(folderOf(relative('.', t)));
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** The strongly connected groups of more than one folder (Tarjan): each is a cycle of folders. */
export function folderCycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) !== idx.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return cycles;
}
