import { hashtagsOf } from '#sync/protocol/hashtags';
import type { TableLoad } from './seed-rows';

// The seed's hashtag filing: every seeded video is ready, so each is filed under the tags
// hashtagsOf() finds in its texts, as server/discovery/video-hashtags.ts files a video that becomes
// ready (the same function, so the filing and the texts agree). The rows are bulk-loaded after the
// videos: video_hashtags in primary-key order (tag, then video id), the same rows of
// video_hashtags_top with the videos' seeded likes_count, and a hashtags row for each new tag with
// its count; a tag an earlier seed (or a member) already filed gains its new videos in `existing`,
// which the caller adds to its row.

export interface SeedFiling {
  /** Records video j's tags from its texts (videos are noted in id order). */
  note(j: number, title: string, description: string): void;
  hashtags: TableLoad;
  videoHashtags: TableLoad;
  videoHashtagsTop: TableLoad;
}

export function seedFiling(video: { ids: readonly string[]; at: Float64Array; likes: Uint32Array }, now: number, existing: Map<string, number>): SeedFiling {
  const tagIds = new Map<string, number>();
  const tags: string[] = [];
  // Video j's tags are tagsOf[start[j] … start[j + 1]).
  const start = new Uint32Array(video.ids.length + 1);
  const tagsOf: number[] = [];
  const counts: number[] = [];
  let byTag: Uint32Array | undefined;
  let tagStart: Uint32Array | undefined;
  let order: number[] = [];

  /** Video indexes grouped by tag (a counting sort), each group ascending, and the tags in byte order. */
  const group = () => {
    tagStart = new Uint32Array(tags.length + 1);
    for (let t = 0; t < tags.length; t++) tagStart[t + 1] = tagStart[t]! + counts[t]!;
    const next = tagStart.slice(0, tags.length);
    byTag = new Uint32Array(tagsOf.length);
    for (let j = 0; j < video.ids.length; j++) for (let k = start[j]!; k < start[j + 1]!; k++) byTag[next[tagsOf[k]!]!++] = j;
    order = tags.map((_, t) => t).sort((a, b) => (tags[a]! < tags[b]! ? -1 : tags[a]! > tags[b]! ? 1 : 0));
  };

  return {
    note(j, title, description) {
      for (const tag of hashtagsOf(title, description)) {
        let t = tagIds.get(tag);
        if (t === undefined) {
          tagIds.set(tag, (t = tags.length));
          tags.push(tag);
          counts.push(0);
        }
        counts[t]!++;
        tagsOf.push(t);
      }
      start[j + 1] = tagsOf.length;
    },
    hashtags: {
      table: 'hashtags',
      columns: ['tag', 'videos_count', 'hidden', 'created_at'],
      async write(out) {
        group();
        for (const t of order) {
          const tag = tags[t]!;
          if (existing.has(tag)) existing.set(tag, existing.get(tag)! + counts[t]!);
          else if (out.row(tag, counts[t], 0, now) === true) await out.drain();
        }
      },
    },
    videoHashtags: {
      table: 'video_hashtags',
      columns: ['tag', 'video_id', 'created_at'],
      async write(out) {
        for (const t of order) {
          for (let k = tagStart![t]!; k < tagStart![t + 1]!; k++) {
            const j = byTag![k]!;
            if (out.row(tags[t], video.ids[j], video.at[j]) === true) await out.drain();
          }
        }
      },
    },
    videoHashtagsTop: {
      table: 'video_hashtags_top',
      columns: ['tag', 'likes_count', 'created_at', 'video_id'],
      async write(out) {
        for (const t of order) {
          for (let k = tagStart![t]!; k < tagStart![t + 1]!; k++) {
            const j = byTag![k]!;
            if (out.row(tags[t], video.likes[j], video.at[j], video.ids[j]) === true) await out.drain();
          }
        }
      },
    },
  };
}
