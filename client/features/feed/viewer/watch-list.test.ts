import { describe, expect, it } from 'vitest';
import { parseWatchList } from './watch-list';

const pathOf = (raw: string) => {
  const list = parseWatchList(raw);
  return list.kind === 'server' ? list.path : null;
};

describe('parseWatchList', () => {
  it('reads the feed when the list is absent, "feed" or unknown', () => {
    for (const raw of [undefined, '', 'feed', 'nonsense', 'creator:', 'tag:cats:oldest', 'search:  ']) expect(parseWatchList(raw)).toEqual({ kind: 'feed' });
  });

  it('names the API path of each server list, its parts encoded', () => {
    expect(parseWatchList('following')).toEqual({ kind: 'server', key: 'following', path: '/api/feed/following' });
    expect(parseWatchList('creator:asha_k')).toEqual({ kind: 'server', key: 'creator:asha_k', path: '/api/people/asha_k/videos' });
    expect(pathOf('tag:नमस्ते:top')).toBe(`/api/hashtags/${encodeURIComponent('नमस्ते')}?sort=top`);
    expect(parseWatchList('tag:cats')).toEqual({ kind: 'server', key: 'tag:cats:recent', path: '/api/hashtags/cats?sort=recent' });
    expect(pathOf('search:sun & sea:2')).toBe('/api/search?type=videos&q=sun%20%26%20sea%3A2');
  });
});
