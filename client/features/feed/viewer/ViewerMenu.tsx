import { useEffect, useId, useRef, useState } from 'react';
import { saveForOffline } from '#client/lib/offline-media';
import { toast } from '#client/ui/toast';
import { useSafetyActions } from '#client/ui/safety/useSafety';
import type { FeedActions, FeedCard } from '../components/types';
import { useOfflineCopy } from '../components/player-controls';

interface Props {
  video: FeedCard;
  own: boolean;
  actions: FeedActions;
}

const MoreIcon = () => (
  <svg width={24} height={24} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
    <circle cx="5" cy="12" r="2" />
    <circle cx="12" cy="12" r="2" />
    <circle cx="19" cy="12" r="2" />
  </svg>
);

/** "More options": Save for offline, and for another member's video Report and Block, as the card and the creator page offer them. */
export function ViewerMenu({ video, own, actions }: Props) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const saved = useOfflineCopy(video.mp4_url) !== null;
  const safety = useSafetyActions();
  useEffect(() => {
    if (!open) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !boxRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  const run = (what: () => void) => () => {
    setOpen(false);
    what();
  };
  const save = (mp4Url: string) =>
    saveForOffline(mp4Url).then(
      () => toast.success('Saved for offline'),
      (e: unknown) => toast.error(e instanceof Error ? e.message : 'Could not save the video on this device.'),
    );
  const canSave = video.media_status === 'ready' && !!video.mp4_url;
  const report = !own ? actions.report : null;
  return (
    <div className="viewer-menu" ref={boxRef}>
      <button type="button" className="viewer-action" aria-label="More options" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((o) => !o)}>
        <MoreIcon />
      </button>
      <ul id={listId} className="viewer-menu-list" hidden={!open} aria-label="More options">
        {canSave ? (
          <li>
            <button type="button" disabled={saved} onClick={run(() => void save(video.mp4_url!))}>
              {saved ? 'Saved for offline' : 'Save for offline'}
            </button>
          </li>
        ) : null}
        {report ? (
          <li>
            <button type="button" aria-haspopup="dialog" onClick={run(() => report(video))}>
              Report video
            </button>
          </li>
        ) : null}
        {!own && video.user_handle ? (
          <li>
            <button type="button" className="danger" onClick={run(() => void safety.block(video.user_id, video.user_handle))}>
              Block @{video.user_handle}
            </button>
          </li>
        ) : null}
      </ul>
    </div>
  );
}
