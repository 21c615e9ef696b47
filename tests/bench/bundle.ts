import { existsSync, readFileSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchRow } from './lib/result';
import { unavailable } from './lib/result';
import type { Benchmark } from './lib/context';

const LIMIT_KB = 150;

/**
 * The JavaScript a page needs before it runs: the entry script of `page` (dist/client/index.html
 * unless told), its modulepreloads, and every module they import statically (dynamic import()
 * chunks are excluded: they load later). Sizes are gzip at the default level, what a server would send.
 */
function initialRouteJs(distDir: string, page = 'index.html'): Map<string, number> {
  const html = readFileSync(join(distDir, page), 'utf8');
  const roots = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) roots.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) roots.add(m[1]!);
  const sizes = new Map<string, number>();
  const visit = (url: string) => {
    const rel = url.replace(/^\//, '');
    if (sizes.has(rel) || /^[a-z]+:/i.test(rel)) return;
    const file = join(distDir, rel);
    if (!existsSync(file)) throw new Error(`index.html references ${url}, which is not in ${distDir}`);
    const code = readFileSync(file);
    sizes.set(rel, gzipSync(code).length);
    const text = code.toString('utf8');
    // Static imports only: `import x from"./a.js"`, `import"./a.js"`, `export * from"./a.js"`.
    for (const m of text.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+\.js)["']/g)) {
      const spec = m[1]!;
      if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
      visit(spec.startsWith('/') ? spec : '/' + posix.join(posix.dirname(rel), spec));
    }
  };
  for (const r of roots) visit(r);
  return sizes;
}

/** A row for gzip sizes (bytes per file) against the budget. */
function budgetRow(name: string, sizes: Map<string, number>, spread: string): BenchRow {
  const kb = [...sizes.values()].reduce((a, b) => a + b, 0) / 1024;
  return {
    name,
    unit: 'KB',
    ours: Math.round(kb * 10) / 10,
    baseline: LIMIT_KB,
    ratio: Math.round((kb / LIMIT_KB) * 1000) / 1000,
    target: `<= ${LIMIT_KB} KB`,
    pass: kb <= LIMIT_KB,
    spread,
    status: 'ok',
  };
}

/** 8. Initial-route JS (and the /home route's), gzipped, against the 150 KB budget. */
export const bundle: Benchmark = {
  id: 'bundle',
  title: 'Bundle',
  async run(ctx) {
    const dist = ctx.clientDist;
    if (!existsSync(join(dist, 'index.html')))
      return [unavailable('Bundle: initial-route JS (gzip)', 'KB', `<= ${LIMIT_KB} KB`, 'dist/client/index.html missing (run npx vite build)')];
    const sizes = initialRouteJs(dist);
    const row = budgetRow('Bundle: initial-route JS (gzip)', sizes, `${sizes.size} files: ${[...sizes.keys()].map((f) => basename(f)).join(', ')}`);
    // A signed-in member starts on /home, whose page is the shell the server sends for every app
    // route (scripts/build/prerender-plugin.ts): it preloads the feed screen's chunks too.
    const homeName = 'Bundle: /home route JS (gzip)';
    if (!existsSync(join(dist, 'shell.html'))) return [row, unavailable(homeName, 'KB', `<= ${LIMIT_KB} KB`, 'no shell.html in the build')];
    const home = initialRouteJs(dist, 'shell.html');
    return [row, budgetRow(homeName, home, `${home.size} files (shell.html's entry, its preloads and their static imports)`)];
  },
};
