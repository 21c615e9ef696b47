import { describe, expect, it } from 'vitest';
import { rebasePlaylist } from './public-playlist';

describe('rebasePlaylist', () => {
  const at = 'https://cdn.example.com/media/u/v/j';

  it('makes URI lines and URI="…" attributes absolute under the folder, leaving tags, blank lines and absolute URIs', () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO="a"',
      'v360/index.m3u8',
      '',
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="https://other.example.com/i.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=900000',
      '/media/u/v/j/v720/index.m3u8',
      '',
    ].join('\n');
    expect(rebasePlaylist(text, at).split('\n')).toEqual([
      '#EXTM3U',
      `#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="${at}/audio/index.m3u8"`,
      '#EXT-X-STREAM-INF:BANDWIDTH=400000,AUDIO="a"',
      `${at}/v360/index.m3u8`,
      '',
      '#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=90000,URI="https://other.example.com/i.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=900000',
      '/media/u/v/j/v720/index.m3u8',
      '',
    ]);
  });

  it('keeps the line ends of a CRLF playlist', () => {
    expect(rebasePlaylist('#EXTM3U\r\nv360/index.m3u8\r\n', at)).toBe(`#EXTM3U\r\n${at}/v360/index.m3u8\r\n`);
  });
});
