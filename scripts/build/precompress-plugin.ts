import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text the browser fetches; source maps are left alone (only developer tools ask for them). */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.webmanifest', '.json', '.txt', '.xml']);
/** Below this a compressed copy saves less than the headers and a round trip's worth of packets. */
const MIN_BYTES = 1024;

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** Writes X.br and X.gz beside X when they are smaller; returns how many files got copies. */
export function precompressFolder(dir: string): number {
  let count = 0;
  for (const file of [...filesUnder(dir)]) {
    if (!COMPRESSIBLE.has(extname(file)) || statSync(file).size < MIN_BYTES) continue;
    const body = readFileSync(file);
    // Built once, served many times: the slowest, smallest settings of each format.
    const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) writeFileSync(`${file}.br`, br);
    if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
    count++;
  }
  return count;
}

/**
 * Brotli and gzip copies of the built client, served by server/http/static-client.ts by the
 * request's Accept-Encoding. Runs last (closeBundle, after vite-plugin-pwa has written sw.js).
 */
export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'vidi:precompress',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompressFolder(outDir);
      },
    },
  };
}
