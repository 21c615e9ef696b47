import { describe, expect, it } from 'vitest';
import { chooseSource, prefersNativeHls, type PlayerEnv, type SourceItem } from './media-source';

const ready: SourceItem = { media_status: 'ready', hls_url: '/media/u/v/j/master.m3u8', mp4_url: '/media/u/v/j/small.mp4', video_url: '/media/u/orig.mov' };
const legacy: SourceItem = { media_status: 'ready', hls_url: null, mp4_url: null, video_url: '/media/u/orig.mp4' };
const chrome: PlayerEnv = { nativeHls: false, mse: true, online: true, offlineUrl: null, dataSaver: false };
const safari: PlayerEnv = { ...chrome, nativeHls: true };

describe('chooseSource', () => {
  it('plays HLS through hls.js where the browser has MSE but no native HLS', () => {
    expect(chooseSource(ready, chrome)).toEqual({ kind: 'hls.js', url: ready.hls_url });
    // hls.js caps data saver at 360p itself.
    expect(chooseSource(ready, { ...chrome, dataSaver: true })).toEqual({ kind: 'hls.js', url: ready.hls_url });
  });

  it('plays HLS natively where the browser can (Safari), but the small MP4 with data saver (no cap there)', () => {
    expect(chooseSource(ready, safari)).toEqual({ kind: 'native-hls', url: ready.hls_url });
    expect(chooseSource(ready, { ...safari, mse: false })).toEqual({ kind: 'native-hls', url: ready.hls_url });
    expect(chooseSource(ready, { ...safari, dataSaver: true })).toEqual({ kind: 'mp4', url: ready.mp4_url });
  });

  it('falls back to the small MP4 without HLS and MSE (or after hls.js gave up)', () => {
    expect(chooseSource(ready, { ...chrome, mse: false })).toEqual({ kind: 'mp4', url: ready.mp4_url });
  });

  it('plays the saved copy offline, and the network source offline when nothing is saved', () => {
    expect(chooseSource(ready, { ...chrome, online: false, offlineUrl: ready.mp4_url })).toEqual({ kind: 'offline', url: ready.mp4_url });
    expect(chooseSource(ready, { ...chrome, online: true, offlineUrl: ready.mp4_url })).toEqual({ kind: 'hls.js', url: ready.hls_url });
    expect(chooseSource(ready, { ...chrome, online: false })).toEqual({ kind: 'hls.js', url: ready.hls_url });
  });

  it('plays the original only for old videos that have no renditions', () => {
    expect(chooseSource(legacy, chrome)).toEqual({ kind: 'original', url: legacy.video_url });
    expect(chooseSource(legacy, safari)).toEqual({ kind: 'original', url: legacy.video_url });
    expect(chooseSource({ ...legacy, mp4_url: '/m/small.mp4' }, chrome)).toEqual({ kind: 'mp4', url: '/m/small.mp4' });
    expect(chooseSource({ ...legacy, video_url: null }, chrome)).toBeNull();
    for (const env of [chrome, safari, { ...chrome, mse: false }, { ...chrome, online: false }]) {
      expect(chooseSource(ready, env)?.kind).not.toBe('original');
    }
  });

  it('while processing plays only the uploader local file, and nothing for a failed video', () => {
    const processing: SourceItem = { ...legacy, media_status: 'processing' };
    expect(chooseSource(processing, chrome)).toBeNull();
    expect(chooseSource(processing, { ...chrome, localUrl: 'blob:x' })).toEqual({ kind: 'local', url: 'blob:x' });
    expect(chooseSource({ ...ready, media_status: 'failed' }, chrome)).toBeNull();
  });
});

describe('prefersNativeHls', () => {
  it('uses the native player on Apple browsers and where there is no MSE, hls.js elsewhere', () => {
    expect(prefersNativeHls(true, true, 'Apple Computer, Inc.')).toBe(true);
    expect(prefersNativeHls(true, false, 'Apple Computer, Inc.')).toBe(true);
    // Chromium answers "maybe" for HLS too, but its player cannot be capped or limited to one segment.
    expect(prefersNativeHls(true, true, 'Google Inc.')).toBe(false);
    expect(prefersNativeHls(true, false, 'Google Inc.')).toBe(true);
    expect(prefersNativeHls(false, true, 'Apple Computer, Inc.')).toBe(false);
  });
});
