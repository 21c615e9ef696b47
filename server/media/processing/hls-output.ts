import { open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlannedRendition } from './ladder';

export interface MediaPlaylist {
  initFile: string;
  segments: Array<{ file: string; seconds: number }>;
}

export function parseMediaPlaylist(text: string): MediaPlaylist {
  const init = /#EXT-X-MAP:URI="([^"]+)"/.exec(text)?.[1];
  if (!init) throw new Error('media playlist without EXT-X-MAP');
  const segments: MediaPlaylist['segments'] = [];
  let seconds: number | undefined;
  for (const line of text.split('\n').map((l) => l.trim())) {
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) seconds = Number(inf[1]);
    else if (line && !line.startsWith('#') && seconds !== undefined) {
      segments.push({ file: line, seconds });
      seconds = undefined;
    }
  }
  return { initFile: init, segments };
}

/**
 * Moves ffmpeg's numbered variant folder to its final name and gives its init segment the same
 * name in every folder (ffmpeg suffixes it with the variant index when var_stream_map is used).
 */
export async function settleVariant(fromDir: string, toDir: string): Promise<MediaPlaylist> {
  await rename(fromDir, toDir);
  const playlistPath = join(toDir, 'index.m3u8');
  const text = await readFile(playlistPath, 'utf8');
  const playlist = parseMediaPlaylist(text);
  if (playlist.initFile !== 'init.mp4') {
    await rename(join(toDir, playlist.initFile), join(toDir, 'init.mp4'));
    await writeFile(playlistPath, text.replace(`URI="${playlist.initFile}"`, 'URI="init.mp4"'));
  }
  return { ...playlist, initFile: 'init.mp4' };
}

/**
 * The RFC 6381 avc1 string as the encoder actually wrote it: profile, constraint flags and level
 * are the three bytes after the version byte of the avcC box in the init segment. Reading them
 * keeps CODECS true whatever preset (ultrafast writes Baseline) or level x264 chose.
 */
export async function videoCodecFromInit(initPath: string): Promise<string | undefined> {
  const bytes = await readFile(initPath);
  const at = bytes.indexOf('avcC', 0, 'latin1');
  if (at < 0 || at + 8 > bytes.length) return undefined;
  const hex = [...bytes.subarray(at + 5, at + 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `avc1.${hex}`;
}

/**
 * Peak and average bit/s of the real segments. BANDWIDTH must be the peak (RFC 8216 4.3.4.2); a
 * tail segment shorter than half a second is left out of the peak because its keyframe alone
 * would make a tiny denominator look like a huge rate.
 */
export async function measureBandwidth(dir: string, playlist: MediaPlaylist): Promise<{ peak: number; average: number }> {
  let bits = 0;
  let seconds = 0;
  let peak = 0;
  for (const seg of playlist.segments) {
    const size = (await stat(join(dir, seg.file))).size * 8;
    bits += size;
    seconds += seg.seconds;
    if (seg.seconds >= 0.5 || playlist.segments.length === 1) peak = Math.max(peak, size / Math.max(seg.seconds, 0.001));
  }
  return { peak: Math.ceil(peak), average: Math.ceil(bits / Math.max(seconds, 0.001)) };
}

export interface Variant {
  rendition: PlannedRendition;
  peak: number;
  average: number;
}

/** Our own master playlist: ffmpeg 4.x writes none with CODECS or RESOLUTION. */
export function masterPlaylist(variants: Variant[], fps: number): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of [...variants].sort((a, b) => a.peak - b.peak)) {
    const r = v.rendition;
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${v.peak},AVERAGE-BANDWIDTH=${v.average},RESOLUTION=${r.width}x${r.height},` +
        `FRAME-RATE=${fps.toFixed(3)},CODECS="${r.codecs}"`,
      `${r.name}/index.m3u8`,
    );
  }
  return lines.join('\n') + '\n';
}

/** init + media segments, byte for byte, is one fragmented MP4 that any demuxer reads. */
export async function joinFragments(dir: string, playlist: MediaPlaylist, target: string): Promise<void> {
  // One write per file through one handle (a stream piped into once per segment collects a listener
  // per pipe: Node warns past ten). Segments are small (a 360p segment is well under a MiB).
  const out = await open(target, 'w');
  try {
    for (const file of [playlist.initFile, ...playlist.segments.map((s) => s.file)]) await out.write(await readFile(join(dir, file)));
  } finally {
    await out.close();
  }
}
