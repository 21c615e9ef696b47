import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { fileUnder } from './static-files';

/** dist/client/routes.json as the build writes it (scripts/build/prerender-plugin.ts), generated from the client's router. */
const RoutesFile = z.object({
  /** Each public page prerendered to its own HTML file. */
  pages: z.record(z.string().startsWith('/'), z.string().min(1)),
  /** The empty app shell, for every other route. */
  shell: z.string().min(1),
  /** Every path the client's router knows. */
  routes: z.array(z.string().startsWith('/')),
});

export interface ClientLayout {
  root: string;
  /** Request path (no trailing slash) -> absolute path of its prerendered HTML. */
  pages: ReadonlyMap<string, string>;
  shell: string;
  /** Null for a build without routes.json: every extensionless path then gets the shell with 200. */
  routes: ReadonlySet<string> | null;
}

function inRoot(root: string, file: string, manifest: string): string {
  const path = fileUnder(root, `/${file}`);
  if (!path) throw new Error(`${manifest}: "${file}" is not a file inside ${root}`);
  return path;
}

/**
 * What the build in `root` holds, or null when there is no build (the API runs alone: tests, a
 * server without the PWA). A build older than routes.json serves index.html as the shell.
 */
export function readClientLayout(root: string): ClientLayout | null {
  const manifest = join(root, 'routes.json');
  if (!existsSync(manifest)) {
    const index = join(root, 'index.html');
    return existsSync(index) ? { root, pages: new Map(), shell: index, routes: null } : null;
  }
  let parsed: z.infer<typeof RoutesFile>;
  try {
    parsed = RoutesFile.parse(JSON.parse(readFileSync(manifest, 'utf8')));
  } catch (e) {
    // A broken manifest is a broken build: stop at start-up rather than serve wrong pages.
    throw new Error(`${manifest} is not a valid routes manifest: ${e instanceof Error ? e.message : String(e)}`);
  }
  return {
    root,
    pages: new Map(Object.entries(parsed.pages).map(([path, file]) => [path, inRoot(root, file, manifest)])),
    shell: inRoot(root, parsed.shell, manifest),
    routes: new Set(parsed.routes),
  };
}
