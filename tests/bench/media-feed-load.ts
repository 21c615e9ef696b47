import { randomUUID } from 'node:crypto';
import { insertVideo } from '../helpers/videos';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { openDatabase } from '#db/connect';
import { ratioRow, unavailable, type BenchRow } from './lib/result';
import { assertClean, interleaved, load, type LoadResult } from './lib/load';
import { median } from './lib/stats';
import { pollUntil } from './lib/pwa';
import { probe, type BenchContext } from './lib/context';
import { installMedia, sourceClip, type MediaTools } from './media-fixtures';
import { processingSourceSeconds } from './media-processing';

export const FEED_LOAD_ROW = { name: 'Media: feed p99 while a video is processing, vs idle', unit: 'ms p99', target: '<= 2x' } as const;

const PATH = '/api/videos?limit=20';

/**
 * Queues a transcode the way an upload does (migration 0008): a 'processing' video row of another
 * member (so the viewer's feed pages stay the same) and its media_jobs row, in one transaction.
 */
async function enqueue(ctx: BenchContext, source: string, seconds: number): Promise<string> {
  const { db, close } = openDatabase(ctx.databaseUrl);
  try {
    const uploader = await db.selectFrom('profiles').select('id').where('is_active', '=', 1).where('id', '!=', ctx.viewerId).limit(1).executeTakeFirst();
    if (!uploader) throw new Error('no second member to upload as');
    const fileKey = installMedia(ctx.dataDir, source, `${uploader.id}/${Date.now()}-bench-processing.mp4`);
    const videoId = randomUUID();
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      await insertVideo({ db: trx }, uploader.id, {
        id: videoId,
        title: 'bench: processing',
        file_key: fileKey,
        size_bytes: statSync(source).size,
        duration_ms: seconds * 1000,
        sha256: '0'.repeat(64),
        created_at: now,
        media_status: 'processing',
      });
      await trx
        .insertInto('media_jobs')
        .values({
          id: randomUUID(),
          video_id: videoId,
          kind: 'transcode',
          state: 'queued',
          attempts: 0,
          run_at: now,
          lease_until: 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
    });
    return videoId;
  } finally {
    await close();
  }
}

/** Waits (up to 5 minutes) until the queued video is ready or has failed. */
async function untilProcessed(ctx: BenchContext, videoId: string): Promise<void> {
  const { db, close } = openDatabase(ctx.databaseUrl);
  try {
    await pollUntil('the queued video to finish processing', 300_000, async () => {
      const row = await db.selectFrom('videos').select('media_status').where('id', '=', videoId).executeTakeFirst();
      return row?.media_status !== 'processing';
    });
  } finally {
    await close();
  }
}

/** Pids of the processes whose command line names the video (its ffmpeg runs write under its folder). */
function ffmpegPidsOf(videoId: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (/ffmpeg$/.test(argv[0] ?? '') && argv.some((a) => a.includes(videoId))) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

/** Pauses (SIGSTOP) or resumes (SIGCONT) the job's ffmpeg; false when none runs any more. */
function setPaused(videoId: string, paused: boolean): boolean {
  const pids = ffmpegPidsOf(videoId);
  for (const pid of pids) {
    try {
      process.kill(pid, paused ? 'SIGSTOP' : 'SIGCONT');
    } catch {
      // Exited between the scan and the signal.
    }
  }
  return pids.length > 0;
}

/**
 * Row 5: the signed-in feed's p99 under autocannon while the server's own media runner transcodes
 * a 1080p video (its ffmpeg at the runner's nice 19, 2 threads), against the same server idle.
 * One job serves all rounds: its ffmpeg is paused (SIGSTOP) for the idle rounds and resumed for the
 * processing ones, so the two sides alternate like every other benchmark.
 */
export async function feedLoadRows(ctx: BenchContext, tools: MediaTools): Promise<BenchRow[]> {
  const auth = { authorization: `Bearer ${await ctx.token()}` };
  const p = await probe(`${ctx.server.url}${PATH}`, { headers: auth });
  if (p.status !== 200) return [unavailable(FEED_LOAD_ROW.name, FEED_LOAD_ROW.unit, FEED_LOAD_ROW.target, `GET ${PATH} answered ${p.status}`)];
  // The longest source there is, so the job outlasts the rounds.
  const seconds = Math.max(processingSourceSeconds(ctx), 25);
  const source = await sourceClip(tools.ffmpeg, seconds);
  const videoId = await enqueue(ctx, source, seconds);
  try {
    await pollUntil('the media runner to start ffmpeg on the queued job', 30_000, () => Promise.resolve(ffmpegPidsOf(videoId).length > 0));
  } catch {
    return [
      unavailable(
        FEED_LOAD_ROW.name,
        FEED_LOAD_ROW.unit,
        FEED_LOAD_ROW.target,
        'the server ran no ffmpeg for a queued media job within 30 s (MEDIA_WORKER=off?)',
      ),
    ];
  }
  const round = (paused: boolean) => async (): Promise<LoadResult> => {
    if (!setPaused(videoId, paused) && !paused) throw new Error('the job finished before the rounds did (a longer source is needed)');
    await new Promise((r) => setTimeout(r, 300));
    const r = await load({ url: `${ctx.server.url}${PATH}`, seconds: ctx.seconds, connections: 10, headers: auth });
    assertClean(PATH, r);
    return r;
  };
  try {
    const s = await interleaved(ctx.rounds, round(false), round(true));
    return [
      ratioRow(
        {
          name: FEED_LOAD_ROW.name,
          unit: FEED_LOAD_ROW.unit,
          direction: 'lower',
          targetRatio: 2,
          notes: `the server's runner on a ${seconds} s 1080p source, ffmpeg nice 19, 2 threads; idle = that ffmpeg paused; req/s ${Math.round(median(s.ours.map((r) => r.rps)))} vs ${Math.round(median(s.base.map((r) => r.rps)))}`,
        },
        s.ours.map((r) => r.p99),
        s.base.map((r) => r.p99),
      ),
    ];
  } finally {
    setPaused(videoId, false);
    // The rows after this one share the server: left running, the job took a core from them and its
    // poster, arriving mid-run, became the largest paint of Lighthouse's /home (docs/benchmarks.md, "Session 26").
    await untilProcessed(ctx, videoId);
  }
}
