import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { router } from './app/router';
import { restoreSession } from './lib/session';
import { loadPublicSettings } from './lib/public-settings';
import { connectSyncToSession } from './app/sync-bridge';
import { registerServiceWorker } from './app/service-worker';
import './app/styles.css';

connectSyncToSession();
void restoreSession();
void loadPublicSettings();
registerServiceWorker();

// A lazy chunk of an older deploy is gone: reload once to get the current shell instead of a blank screen.
window.addEventListener('vite:preloadError', (event) => {
  const key = 'vidi.reloadedForChunk';
  if (sessionStorage.getItem(key) === location.pathname) return;
  sessionStorage.setItem(key, location.pathname);
  event.preventDefault();
  location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
