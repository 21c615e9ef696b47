// First: the reset link's token leaves the address before any other module runs.
import './app/strip-url-secrets';
// Before any zod schema is defined, in whichever chunk: no eval under the page's CSP.
import './sync/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { createAppRouter } from './app/router';
import { getSessionState, restoreSession } from './lib/session';
import { loadPublicSettings } from './lib/public-settings';
import { connectSyncToSession, warmFirstSignedInScreen } from './app/sync-bridge';
import { forgetPushOnSignOut } from './lib/push-subscription';
import { registerServiceWorker } from './app/service-worker';
import { markFirstScreenDrawn } from './lib/after-first-screen';
import { reloadIfChunkGone } from './app/stale-chunk';
import './app/styles.css';

connectSyncToSession();
forgetPushOnSignOut();
void restoreSession();
warmFirstSignedInScreen();
void loadPublicSettings();
// At the load event, not later: a member who goes offline in the first seconds (an upload queued on a
// train) needs the precached chunks, and a failed import() is not tried again by the browser.
registerServiceWorker();

// A lazy chunk of an older deploy is gone: reload once to get the current shell (client/app/stale-chunk.ts).
// The error still reaches the screen, whose pieces say what could not open; a chunk that only failed to
// come over the network reloads nothing.
window.addEventListener('vite:preloadError', (event) => {
  void reloadIfChunkGone(event.payload, {
    online: () => navigator.onLine,
    path: () => location.pathname,
    storage: sessionStorage,
    fetch: (url, init) => fetch(url, init),
    reload: () => location.reload(),
  });
});

/**
 * A prerendered page (scripts/build/prerender-plugin.ts) was rendered for a visitor with no session
 * at exactly this address. Only then can React adopt its markup; a member who signed in before, or a
 * query string the page reads, would render differently, so those start from an empty root.
 */
function canHydrate(root: HTMLElement): boolean {
  return root.dataset.prerendered === location.pathname && location.search === '' && getSessionState().status === 'signedOut';
}

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  const router = createAppRouter();
  const app = (
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>
  );
  if (canHydrate(root)) {
    // The screen's lazy chunk must be in before React compares it with the markup.
    await router.load();
    // Render the match tree as on the server (no client-only Suspense boundary around it), as
    // TanStack Router's own hydration does (router-core's load-client.js sets the same field).
    router.ssr = { manifest: undefined };
    hydrateRoot(root, app);
    // The page was on screen before any script ran: what waits for the first screen need not.
    markFirstScreenDrawn();
    return;
  }
  // A prerendered page that cannot be adopted goes at once; the shell's splash stays until React's
  // first commit clears #root (scripts/build/page-html.ts, SHELL_SPLASH).
  if (root.dataset.prerendered) root.replaceChildren();
  // In a transition, React renders the first screen in slices instead of one long task.
  const reactRoot = createRoot(root);
  startTransition(() => reactRoot.render(app));
}

// In a task of its own: the entry's evaluation (React, the router) and the first render were one
// long task on a slow phone; the session's refresh is already out (restoreSession above).
setTimeout(() => void start(), 0);
