import { Hono } from 'hono';
import type { AppEnv } from '../context';

/**
 * Where crawlers may go. Rules are prefixes and the longest matching one wins (RFC 9309 §2.2.2), so
 * `Allow: /admin/login` beats `Disallow: /admin` for the admin sign-in page only. The member pages
 * need a session and show nothing to a crawler; the API, uploads and media are not pages.
 */
const DISALLOWED = ['/api/', '/files/', '/media/', '/home', '/rewards', '/profile', '/payment', '/reset-password', '/admin'];
const ALLOWED = ['/', '/admin/login'];

/**
 * The pages worth finding from a search engine: what Vidi is, and the way in. The password-reset
 * request and the admin sign-in are reachable (robots allows them) but are nobody's landing page.
 */
export const SITEMAP_PATHS = ['/', '/login', '/signup'];

const REVALIDATE = 'no-cache';

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function robotsTxt(publicUrl: string): string {
  return ['User-agent: *', ...ALLOWED.map((p) => `Allow: ${p}`), ...DISALLOWED.map((p) => `Disallow: ${p}`), '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join(
    '\n',
  );
}

export function sitemapXml(publicUrl: string): string {
  const urls = SITEMAP_PATHS.map((p) => `  <url><loc>${escapeXml(publicUrl + p)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/** GET /robots.txt and /sitemap.xml, built from PUBLIC_URL (sitemaps need absolute URLs). */
export function seoRouter() {
  const router = new Hono<AppEnv>();
  router.get('/robots.txt', (c) => c.text(robotsTxt(c.var.deps.config.publicUrl), 200, { 'Cache-Control': REVALIDATE }));
  router.get('/sitemap.xml', (c) =>
    c.body(sitemapXml(c.var.deps.config.publicUrl), 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': REVALIDATE }),
  );
  return router;
}
