import { resolve } from 'node:path';
import { PUBLIC_PAGES, SESSION_PRELOADS, SHELL_PRELOADS } from './public-pages';

/**
 * One chunk for the code a signed-in /home needs beyond the entry (issue 32). Left to the
 * bundler, the member layout's and the feed screen's static imports came out as 27 small chunks,
 * each preloaded by the shell: over HTTP/1.1's six connections a slow phone's first visit pays a
 * round trip per few chunks before the first paint (Lighthouse's simulation: docs/benchmarks.md,
 * "First visit"). The same bytes in one file are fetched in about one round trip.
 *
 * Captured: modules statically reachable from the screens the shell preloads (SHELL_PRELOADS) and
 * from neither the entry nor a prerendered page's screen, so the public pages fetch nothing more.
 * Every module sits in exactly one chunk (no copies: the app's singletons, such as the local
 * database, stay single).
 *
 * A third file, `home-sync`, holds what the session loads with import() before the first pull (the
 * sync engine: SESSION_PRELOADS) and neither the public pages nor the two
 * above hold: the shell preloads it too, as one file rather than six.
 */
const ROOTS = SHELL_PRELOADS.map((m) => resolve(m));
const SESSION_ROOTS = SESSION_PRELOADS.map((m) => resolve(m));
const PUBLIC = [resolve('client/main.tsx'), ...PUBLIC_PAGES.flatMap((p) => (p.module ? [resolve(p.module)] : []))];

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

function staticClosure(graph: ModuleGraph, starts: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dep of graph.getModuleInfo(id)?.importedIds ?? []) stack.push(dep);
  }
  return seen;
}

export function homeChunkGroup() {
  // Computed once per build, on the first module the bundler asks about.
  let home: Set<string> | null = null;
  let session: Set<string> | null = null;
  return {
    name: (id: string, ctx: ModuleGraph): string | null => {
      if (!home || !session) {
        const shared = staticClosure(ctx, PUBLIC);
        const screens = new Set([...staticClosure(ctx, ROOTS)].filter((m) => !shared.has(m)));
        session = new Set([...staticClosure(ctx, SESSION_ROOTS)].filter((m) => !shared.has(m) && !screens.has(m)));
        home = screens;
      }
      if (session.has(id)) return 'home-sync';
      if (!home.has(id)) return null;
      // Two files rather than one, fetched over two connections: the libraries (Dexie and the
      // like) and the app's own code.
      return /[\\/]node_modules[\\/]/.test(id) ? 'home-lib' : 'home';
    },
    // Dependencies outside the set stay where the bundler puts them (the entry's, or chunks the public pages share).
    includeDependenciesRecursively: false,
  };
}
