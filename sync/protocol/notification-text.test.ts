import { describe, expect, it } from 'vitest';
import { notificationBody, notificationTitle, notificationUrl } from './notification-text';
import type { NotificationItem } from './notifications';

// The words of issue 29's notifications, the same in the bell and in the push.

const item = (over: Partial<NotificationItem>): NotificationItem => ({
  id: 'n1',
  kind: 'reply',
  video_id: 'v1',
  count: 1,
  actor_name: 'Ravi',
  actor_handle: 'ravi',
  detail: 'nice one',
  comment_id: 'c1',
  amount_paise: null,
  rank: null,
  created_at: '2026-11-28T00:00:00.000Z',
  updated_at: '2026-11-28T00:00:00.000Z',
  read: false,
  ...over,
});

describe('the words of a reply, a mention and a comment like', () => {
  it.each([
    [{ kind: 'reply' }, 'Ravi replied to your comment'],
    [{ kind: 'mention' }, 'Ravi mentioned you in a comment'],
    [{ kind: 'mention', comment_id: null }, 'Ravi mentioned you in a video'],
    [{ kind: 'comment_likes' }, 'Ravi liked your comment'],
    [{ kind: 'comment_likes', count: 5 }, '5 people liked your comment'],
    [{ kind: 'reply', actor_name: null }, 'Someone replied to your comment'],
  ] as const)('%o says "%s"', (over, title) => {
    expect(notificationTitle(item(over))).toBe(title);
  });

  it("the second line is the comment's words (a video mention's: the title), and a tap goes to the video's card", () => {
    for (const kind of ['reply', 'mention', 'comment_likes'] as const) {
      expect(notificationBody(item({ kind }))).toBe('nice one');
      expect(notificationUrl(item({ kind }))).toBe('/home#video-v1');
    }
  });
});

describe("the words of a report's outcome", () => {
  it('says what the server wrote, with no second line and no actor, and a tap opens the feed', () => {
    const told = item({
      kind: 'report_resolved',
      detail: 'We removed the video you reported',
      actor_name: null,
      actor_handle: null,
      video_id: null,
      comment_id: null,
    });
    expect(notificationTitle(told)).toBe('We removed the video you reported');
    expect(notificationBody(told)).toBe('');
    expect(notificationUrl(told)).toBe('/home');
    expect(notificationTitle({ ...told, detail: null })).toBe('We reviewed your report');
  });
});
