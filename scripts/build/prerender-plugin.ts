import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin, type Rolldown } from 'vite';
type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;
import { prerenderedHtml, shellHtml } from './page-html';
import { PUBLIC_PAGES, ROUTES_FILE, SESSION_PRELOADS, SHELL_FILE, SHELL_PRELOADS } from './public-pages';

interface PrerenderModule {
  renderPage(path: string): Promise<{ markup: string; meta: { title: string; description: string } }>;
  appRoutePaths(): string[];
  shellMeta: { title: string; description: string };
}

const ROOT = resolve(import.meta.dirname, '../..');
// Per build process: two builds at once (a private VIDI_CLIENT_DIST beside dist/) must not share it.
const SSR_OUT = join(ROOT, 'node_modules/.cache', `vidi-prerender-${process.pid}`);

/** client/app/prerender.tsx built for Node (CSS imports dropped, dependencies left to node_modules). */
async function buildPrerenderModule(): Promise<PrerenderModule> {
  rmSync(SSR_OUT, { recursive: true, force: true });
  await build({
    configFile: false,
    root: join(ROOT, 'client'),
    logLevel: 'warn',
    plugins: [react()],
    build: { ssr: join(ROOT, 'client/app/prerender.tsx'), outDir: SSR_OUT, emptyOutDir: true, sourcemap: false },
  });
  return (await import(pathToFileURL(join(SSR_OUT, 'prerender.js')).href)) as PrerenderModule;
}

const chunksOf = (bundle: OutputBundle) => Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');

/** A chunk and every chunk it imports statically: what the browser will fetch before the module runs. */
function staticClosure(bundle: OutputBundle, start: OutputChunk): OutputChunk[] {
  const seen = new Map<string, OutputChunk>();
  const visit = (chunk: OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const next = bundle[name];
      if (next?.type === 'chunk') visit(next);
    }
  };
  visit(start);
  return [...seen.values()];
}

const cssOf = (chunks: OutputChunk[]) => [...new Set(chunks.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))];

/** What a page needs before its first paint: the entry's CSS and its screens' chunks and CSS. */
function pageAssets(bundle: OutputBundle, modules: readonly string[]) {
  const entry = chunksOf(bundle).find((c) => c.isEntry);
  if (!entry) throw new Error('the client build has no entry chunk');
  const entryChunks = staticClosure(bundle, entry);
  const screenChunks = new Set<OutputChunk>();
  for (const module of modules) {
    const id = join(ROOT, module);
    // A screen is its own chunk, or a module of a chunk grouped on purpose (scripts/build/home-chunk.ts).
    const screen = chunksOf(bundle).find((c) => c.facadeModuleId === id) ?? chunksOf(bundle).find((c) => c.moduleIds.includes(id));
    if (!screen) throw new Error(`no chunk for ${module}: is it still loaded lazily by the router?`);
    for (const chunk of staticClosure(bundle, screen)) if (!entryChunks.includes(chunk)) screenChunks.add(chunk);
  }
  const stylesheets = cssOf([...entryChunks, ...screenChunks]);
  return { entryCss: cssOf(entryChunks), stylesheets, modulePreloads: [...screenChunks].map((c) => `/${c.fileName}`) };
}

/**
 * Prerenders the public pages into dist/client after the client build is written, before
 * vite-plugin-pwa lists the files to precache (its closeBundle), so the service worker precaches the
 * pages as served. Writes shell.html (vite's index.html, the page for every other route) and
 * routes.json (the server's map of paths to pages; docs/pwa.md, "First visit").
 */
export function prerenderPlugin(): Plugin {
  return {
    name: 'vidi:prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    writeBundle: {
      order: 'post',
      sequential: true,
      async handler(options, bundle) {
        const outDir = options.dir!;
        const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
        const renderer = await buildPrerenderModule();
        writeFileSync(
          join(outDir, SHELL_FILE),
          shellHtml(shell, renderer.shellMeta, pageAssets(bundle, [...SHELL_PRELOADS, ...SESSION_PRELOADS]).modulePreloads),
        );
        for (const page of PUBLIC_PAGES) {
          const { markup, meta } = await renderer.renderPage(page.path);
          const assets = pageAssets(bundle, page.module ? [page.module] : []);
          const css = assets.stylesheets.map((href) => readFileSync(join(outDir, href), 'utf8')).join('\n');
          const html = prerenderedHtml(shell, {
            path: page.path,
            markup,
            ...meta,
            css,
            inlinedStylesheets: assets.entryCss.map((f) => `/${f}`),
            modulePreloads: assets.modulePreloads,
          });
          mkdirSync(dirname(join(outDir, page.file)), { recursive: true });
          writeFileSync(join(outDir, page.file), html);
        }
        const pages = Object.fromEntries(PUBLIC_PAGES.map((p) => [p.path, p.file]));
        writeFileSync(join(outDir, ROUTES_FILE), JSON.stringify({ pages, shell: SHELL_FILE, routes: renderer.appRoutePaths() }, null, 2) + '\n');
        rmSync(SSR_OUT, { recursive: true, force: true });
      },
    },
  };
}
