import { failed, unavailable, type BenchRow } from './lib/result';
import type { Benchmark, BenchContext } from './lib/context';
import { mediaTools, type MediaTools } from './media-fixtures';
import { playbackRows, playbackUnavailable, ROWS as PLAYBACK_ROWS } from './media-playback';
import { PROCESSING_ROW, processingRows } from './media-processing';
import { FEED_LOAD_ROW, feedLoadRows } from './media-feed-load';

/** One part's rows, or an error row of its own so a broken part does not hide the others. */
async function part(ctx: BenchContext, row: { name: string; unit: string; target: string }, fn: () => Promise<BenchRow[]>): Promise<BenchRow[]> {
  try {
    return await fn();
  } catch (e) {
    console.error(e);
    ctx.log(`media: ${row.name} broke: ${(e as Error).message.split('\n')[0]}`);
    return [failed(row.name, row.unit, row.target, e)];
  }
}

/**
 * Media (docs/benchmarks.md, rows 9-13): HLS playback on a slow link against the original, the
 * processing pipeline's speed, and the feed's p99 while the server's runner transcodes.
 */
export const media: Benchmark = {
  id: 'media',
  title: 'Media: HLS playback, processing, feed under processing',
  async run(ctx) {
    const tools: MediaTools | string = await mediaTools();
    if (typeof tools === 'string') {
      return [
        ...playbackUnavailable(tools),
        unavailable(PROCESSING_ROW.name, PROCESSING_ROW.unit, PROCESSING_ROW.target, tools),
        unavailable(FEED_LOAD_ROW.name, FEED_LOAD_ROW.unit, FEED_LOAD_ROW.target, tools),
      ];
    }
    return [
      ...(await part(ctx, PLAYBACK_ROWS.tap, () => playbackRows(ctx, tools))),
      ...(await part(ctx, PROCESSING_ROW, () => processingRows(ctx, tools))),
      ...(await part(ctx, FEED_LOAD_ROW, () => feedLoadRows(ctx, tools))),
    ];
  },
};
