import { describe, expect, it } from 'vitest';
import { prerenderedHtml, SHELL_SPLASH, shellHtml, withTitle } from './page-html';

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Vidi" />
    <title>Vidi</title>
    <script type="module" crossorigin src="/assets/index-a.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-b.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

const page = {
  path: '/login',
  markup: '<main><h1>Sign In</h1></main>',
  title: 'Sign In · Vidi',
  description: 'Sign in & "watch"',
  css: 'h1{color:red}',
  inlinedStylesheets: ['/assets/index-b.css'],
  modulePreloads: ['/assets/LoginPage-c.js'],
};

describe('prerenderedHtml', () => {
  it('puts the markup in #root, marked with its path, and names the page', () => {
    const html = prerenderedHtml(SHELL, page);
    expect(html).toContain('<div id="root" data-prerendered="/login"><main><h1>Sign In</h1></main></div><template id="prerendered-end"></template>');
    expect(html).toContain('<title>Sign In · Vidi</title>');
    expect(html).toContain('<meta name="description" content="Sign in &amp; &quot;watch&quot;" />');
  });

  it('inlines the CSS in place of the render-blocking link and preloads the screen chunk', () => {
    const html = prerenderedHtml(SHELL, page);
    expect(html).not.toContain('rel="stylesheet"');
    expect(html).toContain('<style>h1{color:red}</style>');
    expect(html).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/LoginPage-c.js">');
    // The page is complete without its script: it must not compete with the first paint.
    expect(html).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index-a.js"></script>');
    expect(html.indexOf('<style>')).toBeLessThan(html.indexOf('</head>'));
    // The first paint waits for the whole page, so a centred card does not move as it is parsed.
    expect(html).toContain('<link rel="expect" href="#prerendered-end" blocking="render">');
  });

  it('refuses a shell it cannot fill rather than writing a broken page', () => {
    expect(() => prerenderedHtml(SHELL.replace('<div id="root"></div>', '<div id="app"></div>'), page)).toThrow(/empty #root/);
    expect(() => prerenderedHtml(SHELL, { ...page, inlinedStylesheets: ['/assets/other.css'] })).toThrow(/stylesheet link/);
    expect(() => prerenderedHtml(SHELL, { ...page, css: 'a::after{content:"</style>"}' })).toThrow(/<\/style>/);
  });

  it('escapes a title that holds markup', () => {
    expect(withTitle(SHELL, '<b>x</b>', 'd')).toContain('<title>&lt;b&gt;x&lt;/b&gt;</title>');
  });
});

describe('shellHtml', () => {
  it('names the shell, preloads the member screens at normal priority and paints the brand until the client renders', () => {
    const html = shellHtml(SHELL, { title: 'Vidi', description: 'Short videos' }, ['/assets/FeedPage-d.js']);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/FeedPage-d.js">');
    expect(html).toContain('<meta name="description" content="Short videos" />');
    expect(html).toContain(`<div id="root">${SHELL_SPLASH}</div>`);
    expect(html).not.toContain('fetchpriority');
  });
});
