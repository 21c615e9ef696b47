import { useEffect, useRef, useState } from 'react';
import { PauseIcon, PlayIcon, VideoIcon } from '#client/ui/icons';
import { claimPlayback, releasePlayback } from './playback';
import { keepMediaForOffline } from '#client/lib/offline-media';

/** A view counts once the viewer watched 3 s, or a shorter video to its end (docs/decisions/0008-the-view-rule.md). */
export const VIEW_THRESHOLD_MS = 3000;

interface Props {
  videoId: string;
  title: string;
  src: string | null;
  poster: string | null;
  /** Close to the viewport: load the poster and the first bytes ahead of time. */
  near: boolean;
  onWatched(videoId: string, watchedMs: number): void;
}

/** The 9:16 inline player: tap to play or pause; pauses when scrolled out of view. */
export function VideoPlayer({ videoId, title, src, poster, near, onWatched }: Props) {
  const frameRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [refused, setRefused] = useState(false);
  const watch = useRef({ ms: 0, last: -1, reported: false });
  // When the member last pressed play: an observation made before that press must not undo it.
  const pressedAt = useRef(0);

  useEffect(() => {
    const frame = frameRef.current;
    const video = videoRef.current;
    if (!frame || !video || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      ([entry]) => {
        if (entry && entry.intersectionRatio < 0.3 && entry.time > pressedAt.current && !video.paused) video.pause();
      },
      { threshold: [0, 0.3] },
    );
    io.observe(frame);
    return () => {
      io.disconnect();
      releasePlayback(video);
    };
  }, [src]);

  const report = () => {
    const w = watch.current;
    if (w.reported) return;
    w.reported = true;
    onWatched(videoId, Math.round(w.ms));
  };

  const onTimeUpdate = () => {
    const video = videoRef.current;
    if (!video) return;
    const w = watch.current;
    const t = video.currentTime;
    // Only time actually played counts; a seek jumps and is not watching.
    if (w.last >= 0 && t > w.last && t - w.last < 1.5) w.ms += (t - w.last) * 1000;
    w.last = t;
    if (w.ms >= VIEW_THRESHOLD_MS) report();
  };

  const toggle = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) {
      pressedAt.current = performance.now();
      claimPlayback(video);
      setRefused(false);
      video.play().catch(() => setRefused(true));
    } else {
      video.pause();
    }
  };

  if (!src) {
    return (
      <div className="player placeholder" role="img" aria-label={`No video for ${title}`}>
        <VideoIcon size={48} />
      </div>
    );
  }

  return (
    <div className="player" ref={frameRef}>
      <video
        ref={videoRef}
        src={src}
        poster={near && poster ? poster : undefined}
        preload={near ? 'metadata' : 'none'}
        playsInline
        loop={false}
        onPlay={(e) => {
          claimPlayback(e.currentTarget);
          setPlaying(true);
          keepMediaForOffline(src);
        }}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          watch.current.last = -1;
          report();
        }}
        onSeeking={() => {
          watch.current.last = -1;
        }}
        onTimeUpdate={onTimeUpdate}
        aria-label={title}
      />
      <button
        type="button"
        className={`play-toggle${playing ? ' playing' : ''}${refused ? ' refused' : ''}`}
        onClick={toggle}
        aria-label={playing ? `Pause ${title}` : `Play ${title}`}
      >
        <span className="play-icon">{playing ? <PauseIcon size={36} /> : <PlayIcon size={36} />}</span>
      </button>
    </div>
  );
}
