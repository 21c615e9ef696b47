import { describe, expect, it } from 'vitest';
import { encodeArgs, filterGraph, toSdr } from './encode-args';
import { planLadder } from './ladder';
import type { ProbeResult } from './probe';

const probe = (over: Partial<ProbeResult> = {}): ProbeResult => ({
  container: 'mov',
  videoIndex: 0,
  width: 1080,
  height: 1920,
  rotation: 0,
  displayWidth: 1080,
  displayHeight: 1920,
  fps: { num: 60, den: 1 },
  pixFmt: 'yuv420p',
  bitDepth: 8,
  colorTransfer: 'bt709',
  hasAudio: true,
  durationMs: 2000,
  ...over,
});

describe('toSdr', () => {
  it('tone-maps PQ and HLG through linear light with zscale + tonemap', () => {
    expect(toSdr({ colorTransfer: 'smpte2084' })).toMatch(
      /^zscale=tin=smpte2084:.*t=linear.*tonemap=tonemap=hable.*zscale=t=bt709:m=bt709:r=tv,format=yuv420p$/,
    );
    expect(toSdr({ colorTransfer: 'arib-std-b67' })).toContain('zscale=tin=arib-std-b67');
  });

  it('only converts the pixel format for SDR, 10-bit or not', () => {
    expect(toSdr({ colorTransfer: 'bt709' })).toBe('format=yuv420p');
    expect(toSdr({ colorTransfer: undefined })).toBe('format=yuv420p');
  });
});

describe('filterGraph and encodeArgs', () => {
  it('decodes the video stream the probe chose, not a cover picture stored before it', () => {
    const p = probe({ videoIndex: 2 });
    expect(filterGraph(p, planLadder(p))).toMatch(/^\[0:2\]format=yuv420p,/);
  });

  it('decodes once, caps the rate, splits per rendition and normalises loudness once', () => {
    const p = probe();
    const graph = filterGraph(p, planLadder(p));
    expect(graph).toContain('[0:0]format=yuv420p,fps=30,split=4[s0][s1][s2][s3]');
    expect(graph).toContain('[s3]scale=1080:1920,setsar=1[v3]');
    expect(graph).toContain('[0:a:0]loudnorm=I=-16:TP=-1.5:LRA=11,aresample=48000,asplit=4[a0][a1][a2][a3]');
  });

  it('leaves audio out entirely when the source has none', () => {
    const p = probe({ hasAudio: false });
    const args = encodeArgs({ probe: p, plan: planLadder(p), source: 'in.mov', workDir: '/w', threads: 2, preset: 'veryfast' });
    expect(args.join(' ')).not.toMatch(/0:a|aac|loudnorm/);
    expect(args[args.indexOf('-var_stream_map') + 1]).toBe('v:0 v:1 v:2 v:3');
  });

  it('bounds threads, fixes the GOP, turns scene cuts off and writes fMP4 HLS', () => {
    const p = probe();
    const args = encodeArgs({ probe: p, plan: planLadder(p), source: 'in.mov', workDir: '/w', threads: 3, preset: 'veryfast' }).join(' ');
    expect(args).toContain('-threads 3 -filter_threads 3 -f mov');
    expect(args).toContain('-filter_complex_threads 3');
    expect(args).toContain('-g 60 -keyint_min 60 -sc_threshold 0');
    expect(args).toContain('-force_key_frames expr:gte(t,n_forced*2)');
    expect(args).toContain('-progress pipe:1');
    expect(args).toContain('-hls_time 2 -hls_playlist_type vod -hls_segment_type fmp4');
    expect(args).toContain('-var_stream_map v:0,a:0 v:1,a:1 v:2,a:2 v:3,a:3 /w/v%v/index.m3u8');
    expect(args).toContain('-b:v:0 700000');
    expect(args).toContain('-level:v:3 4.0');
  });

  it('names the demuxer, opens only local files, caps the decoders and reads at most 2 minutes of input', () => {
    const p = probe({ container: 'matroska' });
    const args = encodeArgs({ probe: p, plan: planLadder(p), source: '/m/in.webm', workDir: '/w', threads: 2, preset: 'veryfast' });
    const input = args.slice(args.indexOf('-f'), args.indexOf('-i') + 2);
    expect(input).toEqual(['-f', 'matroska', '-protocol_whitelist', 'file', '-max_pixels', String(4096 * 2304), '-t', '120', '-i', 'file:/m/in.webm']);
    // Input options: every one of them comes before the -i they apply to.
    expect(args.indexOf('-filter_complex')).toBeGreaterThan(args.indexOf('-i'));
  });
});

describe('the starter output', () => {
  const args = (p: ProbeResult) => encodeArgs({ probe: p, plan: planLadder(p), source: 'in.mov', workDir: '/w', threads: 2, preset: 'veryfast' });

  it('scales the starter from the lowest rung and normalises its audio the same way', () => {
    const p = probe();
    const graph = filterGraph(p, planLadder(p));
    expect(graph).toContain('[s0]scale=360:640,setsar=1,split=2[v0][st];');
    expect(graph).toContain(';[st]scale=240:426,setsar=1[stv]');
    expect(graph).toContain('[0:a:0]loudnorm=I=-16:TP=-1.5:LRA=11,aresample=48000[sta]');
  });

  it('writes it as a second HLS output: 1 s first segment, keyframes at 0, 1, 2, 4, …', () => {
    const a = args(probe());
    const second = a.slice(a.indexOf('/w/v%v/index.m3u8') + 1);
    expect(second.join(' ')).toMatch(/^-map \[stv\] -map \[sta\] -c:v libx264 /);
    expect(second.join(' ')).toContain('-b:v 300000 -maxrate 450000 -bufsize 900000');
    expect(second.join(' ')).toContain('-b:a 64000');
    expect(second.join(' ')).toContain('-force_key_frames expr:eq(n_forced,0)+eq(n_forced,1)*gte(t,1)+gte(n_forced,2)*gte(t,2*(n_forced-1))');
    expect(second.join(' ')).toContain('-hls_time 2 -hls_init_time 1 -hls_playlist_type vod');
    expect(second.at(-1)).toBe('/w/vs/index.m3u8');
  });

  it('has no starter output, and no second loudnorm, for a source of 240p or less', () => {
    const p = probe({ displayWidth: 320, displayHeight: 180, width: 320, height: 180 });
    expect(args(p).at(-1)).toBe('/w/v%v/index.m3u8');
    expect(filterGraph(p, planLadder(p)).match(/loudnorm/g)).toHaveLength(1);
  });
});
