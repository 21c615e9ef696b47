import { useState } from 'react';
import type { FeedItem } from '#sync/protocol/messages';
import { peoplePath, type PersonItem } from '#client/lib/people';
import { usePagedRead } from '#client/lib/usePagedRead';
import { Tabs, type TabDef } from '#client/ui/Tabs';
import { PersonList } from '#client/ui/people/PersonList';
import { ListState } from '#client/ui/ListState';
import { VideoGrid } from '#client/ui/VideoGrid';

type TabKey = 'videos' | 'followers' | 'following';
const TABS: Array<TabDef<TabKey>> = [
  { key: 'videos', label: 'Videos' },
  { key: 'followers', label: 'Followers' },
  { key: 'following', label: 'Following' },
];

interface Props {
  handle: string;
  name: string;
  meId: string | null;
}

/** Their videos, followers and following, as tabs; each list is read page by page. */
export function CreatorLists({ handle, name, meId }: Props) {
  const [tab, setTab] = useState<TabKey>('videos');
  return (
    <Tabs<TabKey> className="creator-tabs" tabs={TABS} selected={tab} onSelect={setTab} label={`${name}'s videos and people`}>
      {tab === 'videos' ? <Videos handle={handle} name={name} /> : <People handle={handle} name={name} list={tab} meId={meId} />}
    </Tabs>
  );
}

function Videos({ handle, name }: { handle: string; name: string }) {
  const read = usePagedRead<FeedItem>(peoplePath(handle, 'videos'));
  return (
    <ListState read={read} what="videos" empty={`${name} has not posted any videos yet.`}>
      <VideoGrid videos={read.items} watchList={`creator:${handle}`} />
    </ListState>
  );
}

function People({ handle, name, list, meId }: { handle: string; name: string; list: 'followers' | 'following'; meId: string | null }) {
  const read = usePagedRead<PersonItem>(peoplePath(handle, list));
  const empty = list === 'followers' ? `Nobody follows ${name} yet.` : `${name} does not follow anyone yet.`;
  return (
    <ListState read={read} what={list === 'followers' ? 'followers' : 'people'} empty={empty}>
      <PersonList people={read.items} meId={meId} label={list === 'followers' ? `${name}'s followers` : `People ${name} follows`} />
    </ListState>
  );
}
