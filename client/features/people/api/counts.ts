import type { CreatorProfile } from '#client/lib/people';

export interface CreatorCounts {
  followers: number;
  following: number;
  videos: number;
}

/** The member's own counters as their synced profile holds them (live: a pull brings each new follower). */
export interface OwnCounters {
  followers_count?: number;
  following_count?: number;
}

/**
 * A creator page's counts as this device knows them: on one's own page the synced counters; on
 * another's, the server's count with the member's own follow taken as it is now on the device
 * (the server counted it as it was when the page was read, perhaps before a queued follow).
 */
export function countsOf(profile: CreatorProfile, ownSynced: OwnCounters | null, followingNow: boolean | undefined): CreatorCounts {
  if (ownSynced) {
    return {
      followers: ownSynced.followers_count ?? profile.followers_count,
      following: ownSynced.following_count ?? profile.following_count,
      videos: profile.videos_count,
    };
  }
  const was = profile.viewer.following ? 1 : 0;
  const now = (followingNow ?? profile.viewer.following) ? 1 : 0;
  return { followers: Math.max(0, profile.followers_count - was + now), following: profile.following_count, videos: profile.videos_count };
}
