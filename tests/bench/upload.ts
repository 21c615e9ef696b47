import { request } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ratioRow, unavailable, type BenchRow } from './lib/result';
import { interleaved } from './lib/load';
import { startBaseline } from './lib/processes';
import { paddedMp4 } from './lib/video-file';
import { tusUpload } from './lib/tus-upload';
import { probe, type Benchmark } from './lib/context';
import { startFaultProxy } from '../faults/fault-proxy';

const MiB = 1024 * 1024;

function rawPut(url: string, data: Buffer): Promise<void> {
  return new Promise((ok, fail) => {
    const req = request(url, { method: 'PUT', headers: { 'content-length': data.length, 'content-type': 'application/octet-stream' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 ? ok() : fail(new Error(`raw PUT answered ${res.statusCode}`))));
    });
    req.on('error', fail);
    req.end(data);
  });
}

/**
 * 4. A 100 MiB tus upload (8 MiB chunks, the whole server path: auth, tus, file store, content
 * check, hashing, the video row) vs a raw node:http PUT streamed to a file and fsynced. Then the
 * resume cost: the same upload cut once mid-way by the fault proxy; bytes sent beyond the file size.
 */
export const upload: Benchmark = {
  id: 'upload',
  title: 'Upload',
  async run(ctx) {
    const size = (ctx.quick ? 20 : 100) * MiB;
    const name = `Upload: ${size / MiB} MiB tus vs raw PUT`;
    const token = await ctx.token();
    const p = await probe(`${ctx.server.url}/files/`, { method: 'OPTIONS', headers: { 'tus-resumable': '1.0.0' } });
    if (p.status === 404) return [unavailable(name, 'MB/s', '>= 0.8x', 'no tus endpoint at /files/')];
    const video = paddedMp4(join(ctx.tmpDir, `upload-${size}.mp4`), size);
    const data = readFileSync(video.file);
    const putDir = join(ctx.tmpDir, 'raw-put');
    mkdirSync(putDir, { recursive: true });
    const base = await startBaseline('put', { BENCH_PUT_DIR: putDir });
    const rows: BenchRow[] = [];
    try {
      const mbps = async (f: () => Promise<unknown>) => {
        const t0 = performance.now();
        await f();
        return size / 1e6 / ((performance.now() - t0) / 1000);
      };
      // With the warm-up (one discarded run of each side, as every other benchmark does): a first
      // upload into a fresh server process measures its JIT warming up, not the upload path.
      const s = await interleaved(
        ctx.rounds,
        () => mbps(() => tusUpload({ origin: ctx.server.url, token, data, writeBytes: MiB })),
        () => mbps(() => rawPut(`${base.url}/`, data)),
      );
      rows.push(ratioRow({ name, unit: 'MB/s', direction: 'higher', targetRatio: 0.8, notes: '8 MiB chunks, 1 MiB socket writes' }, s.ours, s.base));

      // Resume cost: one cut at a random offset in the second half of the bytes.
      const cutAt = Math.floor(size * (0.5 + Math.random() * 0.4));
      const proxy = await startFaultProxy(ctx.server.port, { cutAtTotalUp: cutAt });
      try {
        await tusUpload({ origin: proxy.url, token, data, retryDelays: [0, 100, 500] });
        const resent = proxy.stats.bytesUp - size;
        rows.push({
          name: 'Upload: resume cost after one cut',
          unit: 'KiB re-sent',
          ours: Math.round(resent / 1024),
          baseline: Math.round(size / 1024),
          ratio: Math.round((resent / size) * 10000) / 10000,
          target: 'report',
          pass: null,
          spread: `${proxy.stats.cuts} cut(s), ${proxy.stats.connections} connections; includes HTTP headers`,
          status: 'ok',
        });
      } finally {
        await proxy.close();
      }
    } finally {
      await base.stop();
    }
    return rows;
  },
};
