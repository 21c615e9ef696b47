import { useEffect } from 'react';
import { useRouterState } from '@tanstack/react-router';
import { pageMetaFor } from './page-meta';

/** Keeps the document's title and description in step with the route (the build wrote the first page's). */
export function usePageMeta(): void {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useEffect(() => {
    const meta = pageMetaFor(pathname);
    document.title = meta.title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', meta.description);
  }, [pathname]);
}
