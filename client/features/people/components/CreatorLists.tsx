import { useState } from 'react';
import type { FeedItem } from '#sync/protocol/messages';
import { peoplePath, type PersonItem } from '#client/lib/people';
import { usePagedRead } from '#client/lib/usePagedRead';
import { Tabs, type TabDef } from '#client/ui/Tabs';
import { PersonList } from '#client/ui/people/PersonList';
import { ListState } from '#client/ui/ListState';
import { VideoGrid } from '#client/ui/VideoGrid';
import type { VideoDialogComponent } from '#client/ui/video-dialog';

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
  VideoDialog: VideoDialogComponent;
}

/** Their videos, followers and following, as tabs; each list is read page by page. */
export function CreatorLists({ handle, name, meId, VideoDialog }: Props) {
  const [tab, setTab] = useState<TabKey>('videos');
  return (
    <Tabs<TabKey> className="creator-tabs" tabs={TABS} selected={tab} onSelect={setTab} label={`${name}'s videos and people`}>
      {tab === 'videos' ? <Videos handle={handle} name={name} VideoDialog={VideoDialog} /> : <People handle={handle} name={name} list={tab} meId={meId} />}
    </Tabs>
  );
}

function Videos({ handle, name, VideoDialog }: { handle: string; name: string; VideoDialog: VideoDialogComponent }) {
  const read = usePagedRead<FeedItem>(peoplePath(handle, 'videos'));
  const [open, setOpen] = useState<FeedItem | null>(null);
  return (
    <>
      <ListState read={read} what="videos" empty={`${name} has not posted any videos yet.`}>
        <VideoGrid videos={read.items} onOpen={setOpen} watchList={`creator:${handle}`} />
      </ListState>
      <VideoDialog video={open} onClose={() => setOpen(null)} />
    </>
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
