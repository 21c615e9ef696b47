import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';

/**
 * A small build like `vite build` writes (scripts/build/): prerendered pages, the shell, hashed
 * assets with .br/.gz beside those of 1 KiB or more, a binary icon and routes.json. It lives in
 * `<root>/client`; `<root>/secret.txt` sits outside it for the path traversal tests.
 */
export interface ClientDist {
  root: string;
  dir: string;
  /** Request path -> the bytes of the file it names (identity). */
  files: Map<string, Buffer>;
}

export const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/login': 'login.html',
  '/signup': 'signup.html',
  '/forgot-password': 'forgot-password.html',
  '/admin/login': 'admin/login.html',
};
export const SHELL_ROUTES = ['/home', '/rewards', '/profile', '/payment', '/reset-password', '/admin'];
export const JS = '/assets/index-Ab12Cd34.js';
export const CSS = '/assets/index-Ef56Gh78.css';
export const SMALL_JS = '/assets/tiny-Ij90Kl12.js';
export const GZIP_ONLY_JS = '/assets/legacy-Mn34Op56.js';
export const SECRET = 'do-not-serve-this';

/** Repetitive text of about `bytes` bytes: compresses well, like real code. */
const filler = (line: (i: number) => string, bytes: number) => {
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += line(i);
  return s;
};

const page = (path: string) =>
  `<!doctype html><html lang="en"><head><title>Vidi ${path}</title><script type="module" src="${JS}"></script></head>` +
  `<body><div id="root" data-prerendered="${path}"><h1>Page ${path}</h1>` +
  filler((i) => `<p class="line">Paragraph ${i} of the page at ${path}.</p>\n`, 2000) +
  '</div></body></html>\n';

export function writeClientDist(opts: { routesJson?: boolean } = {}): ClientDist {
  const root = mkdtempSync(join(tmpdir(), 'vidi-client-'));
  const dir = join(root, 'client');
  const files = new Map<string, Buffer>();
  const write = (path: string, body: string | Buffer, variants: 'both' | 'gzip' | 'none' = 'both') => {
    const file = join(dir, path);
    const bytes = Buffer.from(body);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    if (variants === 'both') writeFileSync(`${file}.br`, brotliCompressSync(bytes));
    if (variants !== 'none') writeFileSync(`${file}.gz`, gzipSync(bytes));
    files.set(`/${path}`, bytes);
  };
  for (const [path, file] of Object.entries(PAGES)) write(file, page(path));
  write(
    'shell.html',
    `<!doctype html><html><head><title>Vidi</title></head><body><div id="root" data-shell></div>${filler((i) => `<!-- ${i} -->`, 1200)}</body></html>\n`,
  );
  write(
    JS.slice(1),
    filler((i) => `export const value${i} = "the value number ${i}";\n`, 6000),
  );
  write(
    CSS.slice(1),
    filler((i) => `.rule-${i} { margin: ${i % 7}px; color: #6d28d9; }\n`, 3000),
  );
  write(SMALL_JS.slice(1), 'export const small = 1;\n', 'none');
  write(
    GZIP_ONLY_JS.slice(1),
    filler((i) => `var legacy${i} = ${i};\n`, 2000),
    'gzip',
  );
  write(
    'sw.js',
    filler((i) => `self.addEventListener("message", () => ${i});\n`, 1500),
  );
  write('favicon.png', randomBytes(700), 'none');
  if (opts.routesJson !== false) {
    const routes = { pages: PAGES, shell: 'shell.html', routes: [...Object.keys(PAGES), ...SHELL_ROUTES].sort() };
    write('routes.json', JSON.stringify(routes, null, 2), 'none');
  }
  writeFileSync(join(root, 'secret.txt'), SECRET);
  return { root, dir, files };
}
