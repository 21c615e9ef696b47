import { spawn } from 'node:child_process';
import { createServer } from 'vite';

// `npm run dev`: the API server restarted on every server-side change (node --watch) and Vite's dev
// server with hot reload for the client, proxying /api, /files and /media to it (vite.config.ts).
const api = spawn(process.execPath, ['--watch', '--import', 'tsx', 'server/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://127.0.0.1:5173' },
});

const vite = await createServer({ configFile: 'vite.config.ts', server: { host: '127.0.0.1', port: 5173 } });
await vite.listen();
vite.printUrls();

const stop = () => {
  api.kill('SIGTERM');
  void vite.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
