import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A program the cluster runs and the Debian packages that bring it. */
export interface Needed {
  what: string;
  /** Present when any of these files exists. */
  files: string[];
  packages: string[];
  noRecommends?: boolean;
}

export const NGINX: Needed = { what: 'nginx (the balancer)', files: ['/usr/sbin/nginx'], packages: ['nginx-light'] };
export const CEPH: Needed = {
  what: 'Ceph RADOS Gateway (the S3 store)',
  files: ['/usr/bin/radosgw'],
  packages: ['ceph-mon', 'ceph-osd', 'radosgw', 'ceph-common'],
  noRecommends: true,
};
export const POSTGRES: Needed = { what: 'PostgreSQL 15+ (the database)', files: [], packages: ['postgresql'] };

function aptCommand(needs: Needed[]): string[][] {
  const plain = needs.filter((n) => !n.noRecommends).flatMap((n) => n.packages);
  const lean = needs.filter((n) => n.noRecommends).flatMap((n) => n.packages);
  return [
    ...(plain.length ? [['apt-get', 'install', '-y', ...plain]] : []),
    ...(lean.length ? [['apt-get', 'install', '-y', '--no-install-recommends', ...lean]] : []),
  ];
}

/**
 * Installs what is missing with apt-get when this process is root (a fresh machine after `npm
 * install`), else stops with the exact command to run. `present` tells whether a need is met when
 * its files alone cannot (PostgreSQL's bin folder depends on its version).
 */
export function ensurePackages(needs: Needed[], present: (n: Needed) => boolean = (n) => n.files.some((f) => existsSync(f))): void {
  const missing = needs.filter((n) => !present(n));
  if (!missing.length) return;
  const commands = aptCommand(missing);
  const shown = commands.map((c) => c.join(' ')).join(' && ');
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing: ${missing.map((n) => n.what).join(', ')}. Install with:\n  sudo sh -c '${shown}'`);
  }
  console.log(`installing ${missing.map((n) => n.what).join(', ')}: ${shown}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  if (update.status !== 0) throw new Error(`apt-get update failed (${update.status}); then run: ${shown}`);
  for (const [cmd, ...args] of commands) {
    const r = spawnSync(cmd!, args, { stdio: 'inherit', env });
    if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} failed (${r.status})`);
  }
  const still = missing.filter((n) => !present(n));
  if (still.length) throw new Error(`still missing after apt-get: ${still.map((n) => n.what).join(', ')}`);
}
