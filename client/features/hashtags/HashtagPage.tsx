import { useState } from 'react';
import { HASHTAG_SORTS, type HashtagPage as HashtagAnswer, type HashtagSort } from '#sync/rest-api/discovery';
import type { FeedItem } from '#sync/protocol/messages';
import { isHashtag, normalizeHashtag } from '#sync/protocol/hashtags';
import { plural } from '#client/lib/format';
import { usePagedRead } from '#client/lib/usePagedRead';
import { ListState } from '#client/ui/ListState';
import { Spinner } from '#client/ui/Spinner';
import { ReadProblem } from '#client/ui/ReadProblem';
import { Tabs, type TabDef } from '#client/ui/Tabs';
import { VideoGrid } from '#client/ui/VideoGrid';
import { hashtagPath } from './api/hashtag-path';
import './hashtags.css';

const SORT_LABELS: Record<HashtagSort, string> = { recent: 'Recent', top: 'Top' };
const TABS: Array<TabDef<HashtagSort>> = HASHTAG_SORTS.map((key) => ({ key, label: SORT_LABELS[key] }));

interface Props {
  /** As it stands in the address: filed tags are NFKC and lower case, so /tag/Cats is #cats. */
  tag: string;
}

/** A hashtag's page at /tag/{tag} (docs/pwa.md, "Discovery"): its count and its videos, recent or top. */
export function HashtagPage({ tag: typed }: Props) {
  const tag = normalizeHashtag(typed);
  if (!isHashtag(tag)) return <HashtagProblem status={404} retry={() => undefined} />;
  return <HashtagVideos key={tag} tag={tag} />;
}

type Head = Pick<HashtagAnswer, 'tag' | 'videos_count'>;

function HashtagVideos({ tag }: { tag: string }) {
  const [sort, setSort] = useState<HashtagSort>('recent');
  const [attempt, setAttempt] = useState(0);
  const read = usePagedRead<FeedItem, HashtagAnswer>(hashtagPath(tag, sort), attempt);
  // The head stays while the other order's first page comes.
  const [head, setHead] = useState<Head | null>(null);
  const first = read.first;
  if (first && (first.tag !== head?.tag || first.videos_count !== head.videos_count)) setHead({ tag: first.tag, videos_count: first.videos_count });

  // A hidden or unknown tag is a 404: the page is there only while the server has it to show.
  if (!head && read.error) return <HashtagProblem status={read.error.status} retry={() => setAttempt((n) => n + 1)} />;
  if (!head) return <Spinner label="Loading hashtag" />;
  return (
    <section className="hashtag-page" aria-labelledby="hashtag-title">
      <header className="hashtag-head">
        <h1 id="hashtag-title">#{head.tag}</h1>
        <p className="muted">{plural(head.videos_count, 'video', 'videos')}</p>
      </header>
      <Tabs<HashtagSort> className="hashtag-tabs" tabs={TABS} selected={sort} onSelect={setSort} label={`#${tag} videos by`}>
        <ListState read={read} what="videos" empty={`No videos with #${tag} yet.`}>
          <VideoGrid videos={read.items} watchList={`tag:${tag}:${sort}`} />
        </ListState>
      </Tabs>
    </section>
  );
}

const NOT_AVAILABLE: [string, string] = ['Hashtag not available', 'This hashtag is not available.'];

function HashtagProblem({ status, retry }: { status: number; retry(): void }) {
  return (
    <ReadProblem
      status={status}
      gone={NOT_AVAILABLE}
      notKept="This hashtag was not saved on this device."
      failed="Could not load this hashtag."
      retry={retry}
    />
  );
}
