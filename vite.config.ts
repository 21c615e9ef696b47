import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

export default defineConfig({
  root: 'client',
  publicDir: 'public',
  build: { outDir: '../dist/client', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080', '/files': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080' },
  },
  plugins: [
    react(),
    VitePWA({
      injectRegister: false,
      registerType: 'prompt',
      manifest: {
        name: 'Vidi',
        short_name: 'Vidi',
        description: 'Share short videos, like, comment and win rewards.',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        theme_color: '#7c3aed',
        background_color: '#0f0f14',
      },
      workbox: {
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api/, /^\/files/, /^\/media/],
      },
    }),
  ],
});
