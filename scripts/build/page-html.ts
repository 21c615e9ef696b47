/**
 * Turns vite's index.html (the shell) into a prerendered page: the markup inside #root, the page's
 * title and description, its CSS inlined instead of a render-blocking <link>, and its route chunk
 * preloaded.
 */
export interface PageParts {
  path: string;
  markup: string;
  title: string;
  description: string;
  /** The CSS the page needs before its first paint, inlined. */
  css: string;
  /** Stylesheet hrefs the inlined CSS replaces. */
  inlinedStylesheets: string[];
  modulePreloads: string[];
}

/** The element after the page's markup that the first paint waits for. */
export const PAGE_END_ID = 'prerendered-end';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function replaceOnce(html: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(html)) throw new Error(`index.html has no ${what}`);
  return html.replace(pattern, () => replacement);
}

export function withTitle(html: string, title: string, description: string): string {
  const titled = replaceOnce(html, /<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`, '<title>');
  return replaceOnce(
    titled,
    /<meta name="description" content="[^"]*"\s*\/?>/,
    `<meta name="description" content="${escapeHtml(description)}" />`,
    'meta description',
  );
}

/**
 * The page reads and looks complete without its JavaScript, which only makes it interactive: its
 * scripts are fetched at low priority, so they never hold up the first paint (a high-priority
 * script that is in before the paint counts as render-blocking to Lighthouse's simulation).
 */
function withLowPriorityScripts(html: string): string {
  return html
    .replace(/<script type="module" crossorigin/g, '<script type="module" fetchpriority="low" crossorigin')
    .replace(/<link rel="modulepreload" crossorigin/g, '<link rel="modulepreload" fetchpriority="low" crossorigin');
}

const modulePreloadLinks = (hrefs: readonly string[], priority?: 'low') =>
  hrefs.map((href) => `<link rel="modulepreload"${priority ? ` fetchpriority="${priority}"` : ''} crossorigin href="${href}">`);

/**
 * The shell, named as a page of its own, with the member screens' chunks preloaded at normal
 * priority: nothing on its routes shows without them.
 */
/**
 * What the shell shows until the app's first render: the brand, centred where the session's
 * spinner comes next. Something contentful paints with the HTML instead of after the entry
 * script, its chunks and the refresh (docs/benchmarks.md, "First visit"); React clears #root at its
 * first commit.
 */
export const SHELL_SPLASH = '<div class="spinner-screen"><span class="brand">Vidi</span></div>';

export function shellHtml(viteIndex: string, meta: { title: string; description: string }, modulePreloads: readonly string[]): string {
  const html = withTitle(viteIndex, meta.title, meta.description);
  const preloaded = replaceOnce(html, /<\/head>/, `    ${modulePreloadLinks(modulePreloads).join('\n    ')}\n  </head>`, '</head>');
  return replaceOnce(preloaded, /<div id="root"><\/div>/, `<div id="root">${SHELL_SPLASH}</div>`, 'empty #root');
}

export function prerenderedHtml(shell: string, page: PageParts): string {
  let html = withTitle(shell, page.title, page.description);
  for (const href of page.inlinedStylesheets) {
    const link = new RegExp(`\\s*<link rel="stylesheet"[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
    html = replaceOnce(html, link, '', `stylesheet link ${href}`);
  }
  // </style> cannot occur inside CSS that vite minified, except in a string; refuse rather than break the page.
  if (/<\/style/i.test(page.css)) throw new Error(`the CSS of ${page.path} contains </style>`);
  const head = [
    `<style>${page.css}</style>`,
    // No first paint of half a page: a centred card whose lower half is still being parsed moves
    // when the rest arrives (a layout shift). Browsers without render-blocking links ignore it.
    `<link rel="expect" href="#${PAGE_END_ID}" blocking="render">`,
    ...modulePreloadLinks(page.modulePreloads, 'low'),
  ].join('\n    ');
  html = withLowPriorityScripts(html);
  html = replaceOnce(html, /<\/head>/, `    ${head}\n  </head>`, '</head>');
  // The marker follows #root, not inside it: React hydrates #root's children and would not expect it.
  const root = `<div id="root" data-prerendered="${escapeHtml(page.path)}">${page.markup}</div><template id="${PAGE_END_ID}"></template>`;
  return replaceOnce(html, /<div id="root"><\/div>/, root, 'empty #root');
}
