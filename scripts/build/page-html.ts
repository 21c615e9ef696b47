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

export function prerenderedHtml(shell: string, page: PageParts): string {
  let html = withTitle(shell, page.title, page.description);
  for (const href of page.inlinedStylesheets) {
    const link = new RegExp(`\\s*<link rel="stylesheet"[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
    html = replaceOnce(html, link, '', `stylesheet link ${href}`);
  }
  // </style> cannot occur inside CSS that vite minified, except in a string; refuse rather than break the page.
  if (/<\/style/i.test(page.css)) throw new Error(`the CSS of ${page.path} contains </style>`);
  const head = [`<style>${page.css}</style>`, ...page.modulePreloads.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)].join('\n    ');
  html = replaceOnce(html, /<\/head>/, `    ${head}\n  </head>`, '</head>');
  return replaceOnce(html, /<div id="root"><\/div>/, `<div id="root" data-prerendered="${escapeHtml(page.path)}">${page.markup}</div>`, 'empty #root');
}
