import { memo, useEffect, useRef, useState } from 'react';
import { HeartIcon, PlayIcon } from '#client/ui/icons';
import type { LoadMode } from '../components/load-mode';
import type { FeedActions, FeedCard } from '../components/types';
import { ViewerOverlay } from './ViewerOverlay';
import { ViewerPlayer } from './ViewerPlayer';
import { useTaps } from './useTaps';

interface Props {
  video: FeedCard;
  index: number;
  active: boolean;
  mode: LoadMode;
  own: boolean;
  muted: boolean;
  onSoundRefused(): void;
  actions: FeedActions;
}

type Heart = { key: number; x: number; y: number };

/** One screen of the viewer: the video, a surface that a tap pauses and a double tap likes, and the overlay. */
export const ViewerSlide = memo(function ViewerSlide({ video, index, active, mode, own, muted, onSoundRefused, actions }: Props) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [paused, setPaused] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [heart, setHeart] = useState<Heart | null>(null);
  // Swiped away and back: it plays again. Cleared on arrival as well as on leaving, and a tap is
  // dropped once the video has left: a tap's pause lands DOUBLE_TAP_MS after it (useTaps.ts), so a tap
  // and at once a swipe paused the video after it had left, and it stayed paused at its start when
  // the member came back to it.
  useEffect(() => setPaused(false), [active]);
  const onTap = useTaps(
    () => {
      if (active) setPaused(playing);
    },
    (x, y) => {
      // A like only: a double tap on a liked video keeps it liked, as in the short-video apps.
      if (!video.liked_by_me) actions.setLike(video.id, true);
      setHeart({ key: performance.now(), x, y });
    },
  );
  const titleId = `viewer-title-${video.id}`;
  return (
    <article className="viewer-slide" data-index={index} data-active={active} aria-labelledby={titleId} inert={!active}>
      <ViewerPlayer
        video={video}
        active={active}
        mode={mode}
        own={own}
        paused={paused}
        muted={muted}
        onSoundRefused={onSoundRefused}
        onPlayingChange={setPlaying}
        onWatched={actions.recordView}
        videoRef={videoRef}
      />
      <button type="button" className="viewer-surface" aria-label={playing ? `Pause ${video.title}` : `Play ${video.title}`} onClick={onTap}>
        {!playing && active && paused ? (
          <span className="viewer-paused-icon">
            <PlayIcon size={56} />
          </span>
        ) : null}
      </button>
      {heart ? (
        <span key={heart.key} className="viewer-heart" style={{ left: heart.x, top: heart.y }} aria-hidden="true" onAnimationEnd={() => setHeart(null)}>
          <HeartIcon size={96} fill="currentColor" />
        </span>
      ) : null}
      <ViewerOverlay video={video} own={own} actions={actions} titleId={titleId} />
    </article>
  );
});
