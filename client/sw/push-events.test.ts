import { describe, expect, it } from 'vitest';
import { parsePushPayload } from './push-events';

const good = {
  notification: {
    id: 'n1',
    kind: 'likes',
    video_id: 'v1',
    count: 2,
    actor_name: 'Ann',
    detail: 'Sunset',
    amount_paise: null,
    rank: null,
    created_at: '',
    updated_at: '',
    read: false,
  },
  title: '2 people liked your video',
  body: 'Sunset',
  url: '/home#video-v1',
  unread: 3,
};

describe('parsePushPayload', () => {
  it('takes the payload the server sends', () => {
    expect(parsePushPayload(JSON.stringify(good))).toEqual(good);
  });
  it('refuses anything else, without throwing', () => {
    for (const bad of [
      'not json',
      'null',
      '[]',
      JSON.stringify({ ...good, title: '' }),
      JSON.stringify({ ...good, url: 'https://elsewhere.example/' }),
      JSON.stringify({ ...good, url: '//elsewhere.example/' }),
      JSON.stringify({ ...good, unread: -1 }),
      JSON.stringify({ ...good, notification: { ...good.notification, kind: 'toString' } }),
      JSON.stringify({ ...good, notification: null }),
    ])
      expect(parsePushPayload(bad)).toBeNull();
  });
});
