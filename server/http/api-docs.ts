import { Hono } from 'hono';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// A human API reference at /api/docs: Swagger UI served from the installed package (never a CDN,
// so it works offline and under our CSP, which forbids inline scripts).
const require = createRequire(import.meta.url);
const distDir = (): string => join(require.resolve('swagger-ui-dist/package.json'), '..');

const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Vidi API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/api/docs/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;

const init = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui' });`;

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

export function apiDocsRouter() {
  const app = new Hono();
  app.get('/', (c) => c.html(html));
  app.get('/init.js', (c) => c.body(init, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  // One route per asset, not '/:asset': a parameter beside static siblings makes Hono fall back from
  // its RegExpRouter to the slower TrieRouter for the whole app.
  for (const [name, type] of Object.entries(assets)) {
    app.get(`/${name}`, async (c) => {
      const body = await readFile(join(distDir(), name));
      return c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' });
    });
  }
  return app;
}
