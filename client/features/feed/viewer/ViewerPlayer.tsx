import { useEffect, useRef, useState, type RefObject } from 'react';
import { keepMediaForOffline } from '#client/lib/offline-media';
import { VideoIcon } from '#client/ui/icons';
import { claimPlayback, releasePlayback } from '../components/playback';
import type { LoadMode } from '../components/load-mode';
import type { FeedCard } from '../components/types';
import { useHlsSource } from '../components/use-hls-source';
import { usePlayerSource } from '../components/use-player-source';
import { useWatchTime } from '../components/VideoPlayer';

interface Props {
  video: FeedCard;
  /** The video on screen: it plays (unless the member paused it); the others pause. */
  active: boolean;
  /** What it loads while not on screen (load-mode.ts: the next one its first segment, the one after its poster). */
  mode: LoadMode;
  own: boolean;
  /** The member paused it with a tap. */
  paused: boolean;
  muted: boolean;
  /** The browser refused to play with sound: the viewer goes muted (the autoplay rule) and says so. */
  onSoundRefused(): void;
  onPlayingChange(playing: boolean): void;
  onWatched(videoId: string, watchedMs: number): void;
  videoRef: RefObject<HTMLVideoElement | null>;
}

/** Plays the video on screen and pauses it when it leaves or the member pauses it; only one plays at a time (playback.ts). */
function useActivePlayback(el: RefObject<HTMLVideoElement | null>, run: boolean, attachedUrl: string | null, p: Pick<Props, 'muted' | 'onSoundRefused'>): void {
  const onSoundRefused = useRef(p.onSoundRefused);
  onSoundRefused.current = p.onSoundRefused;
  useEffect(() => {
    const video = el.current;
    if (!video) return;
    video.muted = p.muted;
    if (!run) {
      if (!video.paused) video.pause();
      return;
    }
    claimPlayback(video);
    let stopped = false;
    const start = () =>
      video.play().catch((e: unknown) => {
        if (stopped || !(e instanceof DOMException)) return;
        // Without a gesture on this page (a shared link opened) only muted video may start.
        if (e.name === 'NotAllowedError' && !video.muted) onSoundRefused.current();
        // Interrupted by a load (hls.js switching what the element plays): again once it can play.
        if (e.name !== 'AbortError') return;
        if (video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) void start();
        else video.addEventListener('canplay', () => void (stopped || start()), { once: true });
      });
    void start();
    return () => {
      stopped = true;
    };
    // A new source on the element (the saved copy once offline) starts again.
  }, [el, run, attachedUrl, p.muted]);
  useEffect(() => {
    const video = el.current;
    return () => {
      if (video) releasePlayback(video);
    };
  }, [el]);
}

/** One viewer slide's video, filling the screen: plays while on screen, preloads as `mode` says. */
export function ViewerPlayer({ video, active, mode, own, paused, muted, onSoundRefused, onPlayingChange, onWatched, videoRef }: Props) {
  // Which source is on the element: a source swapped for another must be played again.
  const [attachedUrl, setAttachedUrl] = useState<string | null>(null);
  const watch = useWatchTime(video.id, onWatched);
  const { source, dataSaver, hlsFailed } = usePlayerSource(video, own);
  // Data saver loads nothing ahead; the video on screen was asked for by opening it.
  const attach = active || mode === 'preload';
  useHlsSource(videoRef, source, {
    attach,
    preloading: !active,
    dataSaver,
    onAttached: () => setAttachedUrl(source?.url ?? null),
    onDetached: () => setAttachedUrl(null),
    onFatal: hlsFailed,
  });
  useActivePlayback(videoRef, active && attachedUrl !== null && !paused, attachedUrl, { muted, onSoundRefused });

  const poster = mode !== 'none' || active ? (video.poster_url ?? undefined) : undefined;
  if (!source) {
    return (
      <div className="viewer-video viewer-placeholder" role="img" aria-label={`No video for ${video.title}`}>
        {poster ? <img src={poster} alt="" /> : <VideoIcon size={48} />}
      </div>
    );
  }
  return (
    <video
      ref={videoRef}
      className="viewer-video"
      poster={poster}
      preload={attach ? 'metadata' : 'none'}
      playsInline
      loop
      onPlay={() => {
        onPlayingChange(true);
        if (source.kind !== 'local') keepMediaForOffline(video.mp4_url);
      }}
      onPause={() => onPlayingChange(false)}
      // A source taken off stops the video without a pause event (the media element's load algorithm).
      onEmptied={() => onPlayingChange(false)}
      onSeeking={watch.onSeeking}
      onTimeUpdate={(e) => watch.onTimeUpdate(e.currentTarget.currentTime)}
      aria-label={video.title}
      data-source={source.kind}
    >
      {video.captions_url ? <track kind="subtitles" srcLang="en" label="English" default src={video.captions_url} /> : null}
    </video>
  );
}
