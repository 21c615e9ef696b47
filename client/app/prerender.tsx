import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { restoreSession } from '#client/lib/session';
import { createAppRouter } from './router';
import { pageMetaFor, type PageMeta } from './meta/page-meta';

export { SHELL_META as shellMeta } from './meta/page-meta';

/**
 * The build's server-side entry (scripts/build/prerender-plugin.ts): renders a public page as a
 * visitor with no session sees it, so the first paint needs no JavaScript. The client hydrates
 * this markup (client/main.tsx) under the same conditions.
 */
export interface PrerenderedPage {
  markup: string;
  meta: PageMeta;
}

export async function renderPage(path: string): Promise<PrerenderedPage> {
  // Outside a browser there is no cached profile: the session settles as signed out, as for a first visit.
  await restoreSession();
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  await router.load();
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
    { onError: (error) => void errors.push(error) },
  );
  let markup = '';
  for await (const chunk of prelude) markup += String(chunk);
  if (errors.length > 0) throw new Error(`prerendering ${path} failed: ${String(errors[0])}`);
  return { markup, meta: pageMetaFor(path) };
}

/** Every path the client router knows: the server answers these with a page, anything else with 404. */
export function appRoutePaths(): string[] {
  const router = createAppRouter(createMemoryHistory({ initialEntries: ['/'] }));
  const paths = Object.keys(router.routesByPath).map((p) => (p.length > 1 ? p.replace(/\/$/, '') : p));
  return [...new Set(paths)].sort();
}
