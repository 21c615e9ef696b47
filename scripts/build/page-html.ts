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

/** Drops the render-blocking <link>s of the stylesheets whose CSS the caller inlines. */
function withInlinedCss(html: string, css: string, hrefs: string[], what: string): string {
  let out = html;
  for (const href of hrefs) {
    const link = new RegExp(`\\s*<link rel="stylesheet"[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
    out = replaceOnce(out, link, '', `stylesheet link ${href}`);
  }
  // </style> cannot occur inside CSS that vite minified, except in a string; refuse rather than break the page.
  if (/<\/style/i.test(css)) throw new Error(`the CSS of ${what} contains </style>`);
  return out;
}

const withHead = (html: string, lines: string[]) => replaceOnce(html, /<\/head>/, `    ${lines.join('\n    ')}\n  </head>`, '</head>');

export function prerenderedHtml(shell: string, page: PageParts): string {
  let html = withInlinedCss(withTitle(shell, page.title, page.description), page.css, page.inlinedStylesheets, page.path);
  html = withLowPriorityScripts(html);
  html = withHead(html, [
    `<style>${page.css}</style>`,
    // No first paint of half a page: a centred card whose lower half is still being parsed moves
    // when the rest arrives (a layout shift). Browsers without render-blocking links ignore it.
    `<link rel="expect" href="#${PAGE_END_ID}" blocking="render">`,
    ...page.modulePreloads.map((href) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${href}">`),
  ]);
  // The marker follows #root, not inside it: React hydrates #root's children and would not expect it.
  const root = `<div id="root" data-prerendered="${escapeHtml(page.path)}">${page.markup}</div><template id="${PAGE_END_ID}"></template>`;
  return replaceOnce(html, /<div id="root"><\/div>/, root, 'empty #root');
}

export interface ShellParts {
  title: string;
  description: string;
  /** The app's loading screen, painted before the script has run; the client replaces it. */
  loadingMarkup: string;
  css: string;
  inlinedStylesheets: string[];
  modulePreloads: string[];
}

/**
 * The shell of every route that is not prerendered (the member's screens, the admin's): the
 * loading screen the app shows first, painted with the HTML instead of after the script, and the
 * member screens' chunks preloaded. Its scripts keep their priority: nothing works without them.
 */
export function shellHtml(viteIndex: string, shell: ShellParts): string {
  let html = withInlinedCss(withTitle(viteIndex, shell.title, shell.description), shell.css, shell.inlinedStylesheets, 'the shell');
  html = withHead(html, [`<style>${shell.css}</style>`, ...shell.modulePreloads.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)]);
  return replaceOnce(html, /<div id="root"><\/div>/, `<div id="root">${shell.loadingMarkup}</div>`, 'empty #root');
}
