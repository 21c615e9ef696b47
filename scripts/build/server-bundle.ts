import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

/** Where `npm run build` writes the server: `npm start` runs `main.mjs` from here. */
export const SERVER_BUNDLE_DIR = join(ROOT, 'dist/server');

/** The server's entry points, by the name of their bundle (`dist/server/<name>.mjs`). */
export const SERVER_ENTRIES = {
  main: 'server/main.ts',
  worker: 'server/worker.ts',
  admin: 'server/cli/admin.ts',
  migrate: 'server/cli/migrate.ts',
  seed: 'server/cli/seed.ts',
} as const;

/** A file written only when its bytes change, through a rename: a process starting from it meanwhile reads a whole file. */
function writeIfChanged(path: string, bytes: Uint8Array): void {
  try {
    if (Buffer.from(readFileSync(path)).equals(bytes)) return;
  } catch {
    // Not there yet.
  }
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}

/**
 * Packages left to node_modules: the native ones (a `.node` file found through `bindings`), and pg's
 * optional native driver, which `pg` asks for only when told to and which is not installed.
 */
const UNBUNDLED_PACKAGES = ['better-sqlite3', 'pg-native'];

/**
 * The bundled CommonJS packages call `require` for Node's built-ins; an ES module has none, so each
 * file makes one (esbuild's own shim throws "Dynamic require is not supported" without it).
 */
const REQUIRE_SHIM = "import { createRequire as __vidiCreateRequire } from 'node:module'; const require = __vidiCreateRequire(import.meta.url);";

/**
 * Bundles the server and the packages it imports, one file per entry plus shared chunks. A process
 * then starts from a few plain ES modules instead of compiling about four hundred TypeScript files
 * through tsx's loader, and of resolving and loading some eight hundred package files, at each start
 * (docs/decisions/0031-server-bundle.md).
 */
export async function buildServerBundle(outDir = SERVER_BUNDLE_DIR): Promise<void> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(SERVER_ENTRIES).map(([out, entry]) => ({ in: entry, out })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: UNBUNDLED_PACKAGES,
    banner: { js: REQUIRE_SHIM },
    sourcemap: true,
    // The maps point at the files on disk: without their text inlined, a start parses a third of the JSON.
    sourcesContent: false,
    write: false,
    logLevel: 'warning',
  });
  for (const file of result.outputFiles) writeIfChanged(file.path, file.contents);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServerBundle();
