import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';

/** A loopback server for a few fixed files (a blank page and a library), for in-browser micro-benchmarks. */
export async function serveFiles(files: Record<string, { type: string; body: string | Buffer }>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const f = files[(req.url ?? '/').split('?')[0]!];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f.type, 'cache-control': 'no-store' });
    res.end(f.body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  return {
    url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export const readText = (file: string) => readFileSync(file, 'utf8');
