import { useEffect, useRef, type RefObject } from 'react';
import type HlsType from 'hls.js';
import type { PlaybackSource } from './media-source';
import { bandwidthEstimate, chooseStartLevel, dataSaverCap, feedBufferLimits } from './hls-levels';

interface Options {
  /** Attach the source now (the card is in view or next, or the member pressed play). */
  attach: boolean;
  /** Buffer only the first segment (until the member plays). */
  preloading: boolean;
  dataSaver: boolean;
  /** Called once the source is on the element, so a play pressed before can start. */
  onAttached(): void;
  /** Called when the source is taken off again. */
  onDetached(): void;
  /** hls.js gave up on this stream: the player falls back to the small MP4. */
  onFatal(): void;
}

type Connection = { downlink?: number };

/**
 * Puts `source` on the video element: a plain src for files and native HLS, hls.js (loaded with
 * import(), so it stays off the first screen's JavaScript) for HLS over MSE. Removes it (and
 * destroys hls.js) when the source changes, the card stops attaching, or it unmounts.
 */
export function useHlsSource(videoRef: RefObject<HTMLVideoElement | null>, source: PlaybackSource | null, o: Options): void {
  const hlsRef = useRef<HlsType | null>(null);
  const latest = useRef(o);
  latest.current = o;
  const url = o.attach ? (source?.url ?? null) : null;
  const kind = source?.kind;

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !url) return;
    if (kind !== 'hls.js') {
      video.src = url;
      latest.current.onAttached();
      return () => {
        latest.current.onDetached();
        detach(video);
      };
    }
    let cancelled = false;
    void import('hls.js').then(
      ({ default: Hls }) => {
        if (cancelled) return;
        const hls = createHls(Hls, video, latest);
        hlsRef.current = hls;
        hls.attachMedia(video);
        hls.loadSource(url);
        latest.current.onAttached();
      },
      () => latest.current.onFatal(),
    );
    return () => {
      cancelled = true;
      latest.current.onDetached();
      hlsRef.current?.destroy();
      hlsRef.current = null;
      detach(video);
    };
  }, [videoRef, url, kind]);

  // Once the member plays, the buffer may grow to the playing limit (read on hls.js's next tick).
  useEffect(() => {
    const hls = hlsRef.current;
    if (hls) Object.assign(hls.config, feedBufferLimits(o.preloading));
  }, [o.preloading, url]);

  // Data saver switched while attached: cap (or uncap) at once.
  useEffect(() => {
    const hls = hlsRef.current;
    if (!hls || hls.levels.length === 0) return;
    // hls.js's own player-size capping rewrites autoLevelCapping every second, so it must be off
    // while data saver holds the cap (node_modules/hls.js/src/controller/cap-level-controller.ts).
    hls.capLevelToPlayerSize = !o.dataSaver;
    hls.autoLevelCapping = o.dataSaver ? dataSaverCap(hls.levels) : -1;
  }, [o.dataSaver]);
}

function detach(video: HTMLVideoElement): void {
  video.removeAttribute('src');
  // Without load() the element keeps the old resource (and its connection) alive.
  video.load();
}

function createHls(Hls: typeof HlsType, video: HTMLVideoElement, latest: RefObject<Options>): HlsType {
  const downlink = (navigator as Navigator & { connection?: Connection }).connection?.downlink;
  const estimate = bandwidthEstimate(downlink);
  const hls = new Hls({
    // Loading starts after the manifest, once the start level and data saver's cap are set, so no
    // playlist or segment above the cap is ever requested.
    autoStartLoad: false,
    startLevel: -1,
    // Fits the rendition to the player, except under data saver: the player-size capping would
    // overwrite data saver's lower cap on its next check.
    capLevelToPlayerSize: !latest.current.dataSaver,
    ...(estimate ? { abrEwmaDefaultEstimate: estimate } : {}),
    ...feedBufferLimits(latest.current.preloading),
  });
  hls.on(Hls.Events.MANIFEST_PARSED, (_e, data) => {
    const cap = latest.current.dataSaver ? dataSaverCap(data.levels) : -1;
    const ratio = window.devicePixelRatio || 1;
    hls.autoLevelCapping = cap;
    hls.startLevel = chooseStartLevel(data.levels, {
      bandwidth: estimate,
      playerWidth: video.clientWidth * ratio,
      playerHeight: video.clientHeight * ratio,
      cap,
    });
    hls.startLoad(-1);
  });
  let mediaRecoveries = 0;
  hls.on(Hls.Events.ERROR, (_e, data) => {
    if (!data.fatal) return;
    // A decoder hiccup is worth two retries; anything else fatal (the playlist or a segment could not
    // be fetched after hls.js's own retries) falls back to the small MP4 rather than a stuck frame.
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR && mediaRecoveries++ < 2) hls.recoverMediaError();
    else latest.current.onFatal();
  });
  return hls;
}
