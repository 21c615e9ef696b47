import type { LadderPlan, PlannedRendition } from './ladder';
import { AUDIO_BITRATE, FIRST_SEGMENT, SEGMENT_SECONDS } from './ladder';
import { MAX_DURATION_MS } from '#sync/protocol/limits';
import type { ProbeResult } from './probe';
import { inputArgs } from './source-input';

/** PQ (HDR10, Dolby Vision base) and HLG: the transfers that need tone mapping to look right in SDR. */
const HDR_TRANSFERS = new Set(['smpte2084', 'arib-std-b67']);

export const isHdr = (p: Pick<ProbeResult, 'colorTransfer'>) => HDR_TRANSFERS.has(p.colorTransfer ?? '');

/**
 * Filters that turn any decoded source into 8-bit SDR BT.709. Rotation is not here on purpose:
 * ffmpeg autorotates while decoding (the display matrix / rotate tag), in 4.x and 5.x alike.
 */
export function toSdr(p: Pick<ProbeResult, 'colorTransfer'>): string {
  if (!isHdr(p)) return 'format=yuv420p';
  // zscale does the transfer maths (linear light), tonemap squeezes the highlights into SDR range;
  // the input transfer is spelled out because some phones tag only part of the colour metadata.
  return [
    `zscale=tin=${p.colorTransfer}:pin=bt2020:min=bt2020nc:rin=tv:t=linear:npl=100`,
    'format=gbrpf32le',
    'zscale=p=bt709',
    'tonemap=tonemap=hable:desat=0',
    'zscale=t=bt709:m=bt709:r=tv',
    'format=yuv420p',
  ].join(',');
}

const LOUDNORM = 'loudnorm=I=-16:TP=-1.5:LRA=11';
const STARTER_LABEL = 'st';
/** The starter's folder in the work directory, beside ffmpeg's numbered v0, v1, …; processVideo renames it. */
export const STARTER_WORK_FOLDER = 'vs';

export function filterGraph(p: ProbeResult, plan: LadderPlan): string {
  const n = plan.renditions.length;
  // The stream the probe chose by index: `0:v:0` would be a cover picture stored before the video.
  const chains = [`[0:${p.videoIndex}]${toSdr(p)},fps=${plan.fps},split=${n}${plan.renditions.map((_, i) => `[s${i}]`).join('')}`];
  // The starter is scaled from the lowest rung's frames (already upright, SDR, at the output rate): cheap.
  const s = plan.starter;
  plan.renditions.forEach((r, i) => chains.push(`[s${i}]scale=${r.width}:${r.height},setsar=1${s && i === 0 ? `,split=2[v0][${STARTER_LABEL}]` : `[v${i}]`}`));
  if (s) chains.push(`[${STARTER_LABEL}]scale=${s.width}:${s.height},setsar=1[${STARTER_LABEL}v]`);
  if (p.hasAudio) {
    // loudnorm resamples to 192 kHz internally; bring it back to 48 kHz for AAC.
    const norm = `[0:a:0]${LOUDNORM},aresample=48000`;
    chains.push(`${norm},asplit=${n}${plan.renditions.map((_, i) => `[a${i}]`).join('')}`);
    // The starter's audio is a second, identical chain: asplit's outputs all go to the ladder.
    if (s) chains.push(`${norm}[${STARTER_LABEL}a]`);
  }
  return chains.join(';');
}

export interface EncodeArgsInput {
  probe: ProbeResult;
  plan: LadderPlan;
  source: string;
  /** The folder the numbered variant folders (v0, v1, …) are written to. */
  workDir: string;
  threads: number;
  preset: string;
}

function perRendition(o: EncodeArgsInput): string[] {
  const args: string[] = [];
  o.plan.renditions.forEach((r, i) => {
    args.push('-map', `[v${i}]`);
    if (o.probe.hasAudio) args.push('-map', `[a${i}]`);
    args.push(`-b:v:${i}`, String(r.videoBitrate), `-maxrate:v:${i}`, String(r.maxrate), `-bufsize:v:${i}`, String(r.bufsize));
    args.push(`-level:v:${i}`, (r.level / 10).toFixed(1));
  });
  return args;
}

/**
 * Keyframes at 0, FIRST_SEGMENT and then every SEGMENT_SECONDS from the second segment on: the
 * ladder's keyframes (0, 2, 4, …) plus one at 1 s, so the starter's first segment is 1 s and
 * every later boundary is one of the ladder's.
 */
export const STARTER_KEYFRAMES = `expr:eq(n_forced,0)+eq(n_forced,1)*gte(t,${FIRST_SEGMENT})+gte(n_forced,2)*gte(t,${SEGMENT_SECONDS}*(n_forced-1))`;

/** The second output: the starter rung, its own HLS folder, 1 s first segment (hls_init_time). */
function starterOutput(o: EncodeArgsInput, s: PlannedRendition): string[] {
  const gop = String(o.plan.gop);
  return [
    ...['-map', `[${STARTER_LABEL}v]`, ...(o.probe.hasAudio ? ['-map', `[${STARTER_LABEL}a]`] : [])],
    ...['-c:v', 'libx264', '-preset', o.preset, '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-threads', String(o.threads)],
    ...['-b:v', String(s.videoBitrate), '-maxrate', String(s.maxrate), '-bufsize', String(s.bufsize), '-level:v', (s.level / 10).toFixed(1)],
    ...['-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709'],
    ...['-g', gop, '-keyint_min', gop, '-sc_threshold', '0', '-force_key_frames', STARTER_KEYFRAMES],
    ...(o.probe.hasAudio ? ['-c:a', 'aac', '-b:a', String(s.audioBitrate), '-ac', '2', '-ar', '48000'] : []),
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_init_time', String(FIRST_SEGMENT), '-hls_playlist_type', 'vod'],
    ...['-hls_segment_type', 'fmp4', '-hls_flags', 'independent_segments', '-start_number', '1', '-hls_fmp4_init_filename', 'init.mp4'],
    ...['-hls_segment_filename', `${o.workDir}/${STARTER_WORK_FOLDER}/seg_%05d.m4s`, `${o.workDir}/${STARTER_WORK_FOLDER}/index.m3u8`],
  ];
}

/**
 * One ffmpeg run for every rendition: decode once, split, encode each size. Variant folders are
 * numbered (%v) because ffmpeg 4.x's var_stream_map has no `name:`; processVideo renames them.
 */
export function encodeArgs(o: EncodeArgsInput): string[] {
  const { plan } = o;
  const t = String(o.threads);
  const streamMap = plan.renditions.map((_, i) => (o.probe.hasAudio ? `v:${i},a:${i}` : `v:${i}`)).join(' ');
  return [
    ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-progress', 'pipe:1', '-y'],
    // At most 2 minutes of input whatever the header says (the packets were measured, this is the backstop).
    ...['-threads', t, '-filter_threads', t, ...inputArgs(o.probe.container, o.source, { maxSeconds: MAX_DURATION_MS / 1000 })],
    ...['-filter_complex_threads', t, '-filter_complex', filterGraph(o.probe, plan)],
    ...perRendition(o),
    ...['-c:v', 'libx264', '-preset', o.preset, '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-threads', t],
    ...['-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709'],
    // Same GOP everywhere and no scene-cut keyframes: every segment of every rendition starts on
    // a keyframe at the same instant, so players can switch between them at segment borders.
    ...['-g', String(plan.gop), '-keyint_min', String(plan.gop), '-sc_threshold', '0'],
    ...['-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`],
    ...(o.probe.hasAudio ? ['-c:a', 'aac', '-b:a', String(AUDIO_BITRATE), '-ac', '2', '-ar', '48000'] : []),
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4'],
    ...['-hls_flags', 'independent_segments', '-start_number', '1', '-hls_fmp4_init_filename', 'init.mp4'],
    ...['-hls_segment_filename', `${o.workDir}/v%v/seg_%05d.m4s`, '-var_stream_map', streamMap],
    `${o.workDir}/v%v/index.m3u8`,
    ...(plan.starter ? starterOutput(o, plan.starter) : []),
  ];
}
