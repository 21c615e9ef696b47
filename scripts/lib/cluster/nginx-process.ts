import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nginxConfig } from './nginx-config';

export const NGINX_BIN = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface Balancer {
  url: string;
  dir: string;
  /** The access log: one line per request naming the instance that answered (upstream=host:port). */
  accessLog(): string;
  stop(): Promise<void>;
}

/**
 * nginx in the foreground as a child of this process, everything of it (config, pid, logs, temp
 * files) in `dir`. Started as root, its workers run as nobody: `dir` is made traversable for them.
 */
export async function startBalancer(opts: { dir: string; port: number; upstreams: string[] }): Promise<Balancer> {
  const { dir } = opts;
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig({ listen: `127.0.0.1:${opts.port}`, upstreams: opts.upstreams, prefix: dir, ...(asRoot ? { user: 'nobody nogroup' } : {}) }));
  const args = ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')];
  const check = spawnSync(NGINX_BIN, [...args, '-t'], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused ${conf}:\n${check.stderr}`);

  const child = spawn(NGINX_BIN, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const url = `http://127.0.0.1:${opts.port}`;
  await waitListening(url, () => (child.exitCode !== null ? `nginx exited (${child.exitCode}): ${stderr}${errorLog(dir)}` : undefined));
  return {
    url,
    dir,
    accessLog: () => (existsSync(join(dir, 'access.log')) ? readFileSync(join(dir, 'access.log'), 'utf8') : ''),
    stop: async () => {
      // SIGTERM is nginx's fast shutdown: a graceful one (SIGQUIT) would wait for open event streams.
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function errorLog(dir: string): string {
  const f = join(dir, 'error.log');
  return existsSync(f) ? `\n${readFileSync(f, 'utf8')}` : '';
}

/** Polls the balancer until it answers (any status: an instance may still be warming up). */
async function waitListening(url: string, died: () => string | undefined): Promise<void> {
  const end = Date.now() + 15_000;
  for (;;) {
    const why = died();
    if (why) throw new Error(why);
    try {
      await fetch(`${url}/api/health`);
      return;
    } catch {
      if (Date.now() > end) throw new Error(`nginx did not listen on ${url} in 15 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
