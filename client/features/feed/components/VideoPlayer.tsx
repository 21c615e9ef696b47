import { useEffect, useRef, useState } from 'react';
import { PauseIcon, PlayIcon, VideoIcon } from '#client/ui/icons';
import { keepMediaForOffline } from '#client/lib/offline-media';
import { claimPlayback, releasePlayback } from './playback';
import type { LoadMode } from './load-mode';
import type { FeedCard } from './types';
import { useHlsSource } from './use-hls-source';
import { usePlayerSource } from './use-player-source';
import { CaptionsButton, SaveOfflineButton } from './player-controls';
import { QUALIFYING_WATCH_MS } from '#sync/protocol/limits';

interface Props {
  video: FeedCard;
  /** What to load before play is pressed (load-mode.ts). */
  mode: LoadMode;
  own: boolean;
  onWatched(videoId: string, watchedMs: number): void;
}

/** Counts time actually played (a seek jumps and is not watching) and reports a view once. */
export function useWatchTime(videoId: string, onWatched: Props['onWatched']) {
  const watch = useRef({ ms: 0, last: -1, reported: false });
  const report = () => {
    const w = watch.current;
    if (w.reported) return;
    w.reported = true;
    onWatched(videoId, Math.round(w.ms));
  };
  return {
    onTimeUpdate(t: number) {
      const w = watch.current;
      if (w.last >= 0 && t > w.last && t - w.last < 1.5) w.ms += (t - w.last) * 1000;
      w.last = t;
      if (w.ms >= QUALIFYING_WATCH_MS) report();
    },
    onSeeking() {
      watch.current.last = -1;
    },
    onEnded() {
      watch.current.last = -1;
      report();
    },
  };
}

/** Pauses the video when less than 30 % of it is visible, unless the member pressed play after that was seen. */
function usePauseOutOfView(
  frameRef: React.RefObject<HTMLDivElement | null>,
  videoRef: React.RefObject<HTMLVideoElement | null>,
  pressedAt: React.RefObject<number>,
  src: string | undefined,
) {
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
  }, [frameRef, videoRef, pressedAt, src]);
}

/** Attaching follows the mode, and stays once made until the card is far away (scrolling back one card keeps its place). */
function useStickyAttach(mode: LoadMode, pressed: boolean): boolean {
  const [kept, setKept] = useState(false);
  useEffect(() => {
    if (mode === 'preload') setKept(true);
    if (mode === 'none') setKept(false);
  }, [mode]);
  return pressed || mode === 'preload' || kept;
}

/** The 9:16 inline player: tap to play or pause; pauses when scrolled out of view. */
export function VideoPlayer({ video, mode, own, onWatched }: Props) {
  const frameRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [refused, setRefused] = useState(false);
  const [pressed, setPressed] = useState(false);
  // When the member last pressed play: an observation made before that press must not undo it.
  const pressedAt = useRef(0);
  const attached = useRef(false);
  const playWhenAttached = useRef(false);
  const watch = useWatchTime(video.id, onWatched);
  const { source, dataSaver, saved, hlsFailed } = usePlayerSource(video, own);
  const attach = useStickyAttach(mode, pressed);

  const start = (el: HTMLVideoElement) => el.play().catch(() => setRefused(true));
  useHlsSource(videoRef, source, {
    attach,
    preloading: !pressed,
    dataSaver,
    onAttached: () => {
      attached.current = true;
      if (playWhenAttached.current && videoRef.current) start(videoRef.current);
      playWhenAttached.current = false;
    },
    onDetached: () => {
      attached.current = false;
      // A source swapped while playing (the uploaded file's local copy, then the server's renditions
      // once processed) plays on from the new one instead of stopping at its first frame.
      if (videoRef.current && !videoRef.current.paused) playWhenAttached.current = true;
    },
    onFatal: hlsFailed,
  });
  usePauseOutOfView(frameRef, videoRef, pressedAt, source?.url);

  const toggle = () => {
    const el = videoRef.current;
    if (!el) return;
    if (!el.paused) return el.pause();
    pressedAt.current = performance.now();
    claimPlayback(el);
    setRefused(false);
    setPressed(true);
    // Not attached yet (data saver, or a card that was far away): play once the source is on.
    if (attached.current) void start(el);
    else playWhenAttached.current = true;
  };

  const poster = mode !== 'none' ? (video.poster_url ?? undefined) : undefined;
  if (!source) return <PosterFrame title={video.title} poster={poster} />;
  const title = video.title;
  return (
    <div className="player" ref={frameRef}>
      <video
        ref={videoRef}
        poster={poster}
        preload={attach ? 'metadata' : 'none'}
        playsInline
        loop={false}
        onPlay={(e) => {
          claimPlayback(e.currentTarget);
          setPlaying(true);
          setPressed(true);
          if (source.kind !== 'local') keepMediaForOffline(video.mp4_url);
        }}
        onPause={() => setPlaying(false)}
        onEnded={() => {
          setPlaying(false);
          watch.onEnded();
        }}
        onSeeking={watch.onSeeking}
        onTimeUpdate={(e) => watch.onTimeUpdate(e.currentTarget.currentTime)}
        aria-label={title}
        data-source={source.kind}
      >
        {video.captions_url ? <track kind="subtitles" srcLang="en" label="English" default src={video.captions_url} /> : null}
      </video>
      <button
        type="button"
        className={`play-toggle${playing ? ' playing' : ''}${refused ? ' refused' : ''}`}
        onClick={toggle}
        aria-label={playing ? `Pause ${title}` : `Play ${title}`}
      >
        <span className="play-icon">{playing ? <PauseIcon size={36} /> : <PlayIcon size={36} />}</span>
      </button>
      <div style={{ position: 'absolute', top: 8, right: 8, display: 'flex', gap: 6, zIndex: 1 }}>
        {video.captions_url ? <CaptionsButton videoRef={videoRef} /> : null}
        {video.media_status === 'ready' && video.mp4_url ? <SaveOfflineButton mp4Url={video.mp4_url} saved={saved} /> : null}
      </div>
    </div>
  );
}

/** No playable source (processing without a local copy, failed, or an upload still queued): the poster or an icon. */
function PosterFrame({ title, poster }: { title: string; poster: string | undefined }) {
  return (
    <div className="player placeholder" role="img" aria-label={`No video for ${title}`}>
      {poster ? <img src={poster} alt="" style={{ width: '100%', height: '100%', objectFit: 'contain' }} /> : <VideoIcon size={48} />}
    </div>
  );
}
