import { useCallback } from 'react';
import { toast } from '#client/ui/toast';
import { Spinner } from '#client/ui/Spinner';
import { ReadProblem } from '#client/ui/ReadProblem';
import { creatorPath } from '#client/lib/people';
import { useSession } from '#client/lib/session';
import { normalizeHandle } from '#sync/protocol/handles';
import { useCreator } from './api/useCreator';
import { CreatorHeader } from './components/CreatorHeader';
import { CreatorLists } from './components/CreatorLists';
import './people.css';

interface Props {
  /** As it stands in the address (/@Asha or /@asha): read case-insensitively. */
  handle: string;
}

/** A creator's page at /@handle (docs/pwa.md, "People"). */
export function CreatorPage({ handle: typed }: Props) {
  const handle = normalizeHandle(typed);
  const creator = useCreator(handle);
  const share = useShareCreator(creator.profile);
  const session = useSession();
  const meId = session.status === 'signedIn' ? session.user.id : null;

  if (!creator.profile || !creator.counts) {
    if (!creator.error) return <Spinner label="Loading profile" />;
    return (
      <ReadProblem
        status={creator.error.status}
        gone={['Not found', 'Nobody on Vidi has this handle.']}
        notKept="This page was not saved on this device."
        failed="Could not load this page."
        retry={creator.retry}
      />
    );
  }
  const { profile, counts } = creator;
  return (
    <section className="creator-page" aria-labelledby="creator-title">
      <CreatorHeader profile={profile} counts={counts} own={creator.own} signedIn={meId !== null} onShare={share} />
      <CreatorLists handle={profile.handle} name={profile.name} meId={meId} />
    </section>
  );
}

/** The page's link to the share sheet, or copied ('Link Copied!'), as the feed shares a video. */
function useShareCreator(profile: { handle: string; name: string } | null): () => void {
  return useCallback(() => {
    if (!profile) return;
    const url = `${location.origin}${creatorPath(profile.handle)}`;
    void import('#client/lib/share-link')
      .then(({ shareUrl }) => shareUrl(url, `${profile.name} on Vidi`, `${profile.name} (@${profile.handle}) on Vidi`))
      .then((outcome) => {
        if (outcome === 'copied') toast.success('Link Copied!', { description: 'Profile link copied to clipboard.' });
        if (outcome === 'failed') toast.error('Share failed', { description: 'The link could not be copied.' });
      });
  }, [profile]);
}
