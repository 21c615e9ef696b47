import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { prerenderPlugin } from './scripts/build/prerender-plugin';
import { precompressPlugin } from './scripts/build/precompress-plugin';
import { homeChunkGroup } from './scripts/build/home-chunk';

export default defineConfig({
  root: 'client',
  publicDir: 'public',
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: true,
    // The signed-in /home's screen code in one chunk instead of dozens (scripts/build/home-chunk.ts).
    rolldownOptions: { output: { codeSplitting: { groups: [homeChunkGroup()] } } },
  },
  // Module workers (the window pages' and the shrink's): a worker's own chunks may split, as the app's do.
  worker: { format: 'es' },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/files': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080' },
  },
  plugins: [
    react(),
    prerenderPlugin(),
    VitePWA({
      // Our own worker (client/sw/sw.ts): precache + offline deep links + a Range-aware media cache.
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: false,
      registerType: 'prompt',
      includeAssets: ['favicon.png', 'apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Vidi',
        short_name: 'Vidi',
        description: 'Share short videos, like, comment and win rewards.',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#6d28d9',
        background_color: '#0f0f14',
        categories: ['social', 'entertainment'],
        // docs/pwa.md, "Share into Vidi": the worker answers this POST (client/sw/share-target.ts);
        // without a worker the server sends the member to /home (server/http/share-target-route.ts).
        share_target: {
          action: '/share-target',
          method: 'POST',
          enctype: 'multipart/form-data',
          params: { title: 'title', text: 'text', files: [{ name: 'video', accept: ['video/*', '.mp4', '.mov', '.webm'] }] },
        },
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,svg,ico,webmanifest}'],
        // The shrink worker (mediabunny, ~110 KB gzipped) loads only on a costly connection: not
        // every install should download it (docs/pwa.md, "Shrink before upload").
        globIgnores: ['**/shrink.worker-*.js'],
      },
    }),
    precompressPlugin(),
  ],
});
