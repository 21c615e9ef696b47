import { describe, expect, it } from 'vitest';
import type { CreatorProfile } from '#client/lib/people';
import { countsOf } from './counts';

const page = (followers: number, following: boolean): CreatorProfile => ({
  id: 'b',
  handle: 'ben',
  name: 'Ben',
  created_at: '2026-01-01T00:00:00.000Z',
  followers_count: followers,
  following_count: 4,
  videos_count: 2,
  viewer: { following, followed_by: false, blocked: false, muted: false },
});

describe("a creator page's counts", () => {
  it('counts a follow queued after the page was read, at once', () => {
    expect(countsOf(page(0, false), null, true)).toEqual({ followers: 1, following: 4, videos: 2 });
  });

  it('does not count the member twice once the server has the follow', () => {
    expect(countsOf(page(1, true), null, true).followers).toBe(1);
  });

  it('takes a queued unfollow off a page read while following', () => {
    expect(countsOf(page(3, true), null, false).followers).toBe(2);
  });

  it("keeps the server's word while the device has not read its own follow yet", () => {
    expect(countsOf(page(3, true), null, undefined).followers).toBe(3);
  });

  it("shows one's own page from the synced profile, which a pull keeps live", () => {
    expect(countsOf(page(0, false), { followers_count: 7, following_count: 1 }, undefined)).toEqual({ followers: 7, following: 1, videos: 2 });
  });
});
