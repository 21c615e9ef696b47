import { useEffect, useRef, type RefObject } from 'react';
import type HlsType from 'hls.js';
import type { PlaybackSource } from './media-source';
import { bufferLimits, isSlowLink, levelCap, measuredLink, playerPlan, readLink, type LinkHints } from './link-rule';

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

/**
 * Puts `source` on the video element: a plain src for files and native HLS, hls.js (loaded with
 * import(), so it stays off the first screen's JavaScript) for HLS over MSE. Removes it (and
 * destroys hls.js) when the source changes, the card stops attaching, or it unmounts.
 */
export function useHlsSource(videoRef: RefObject<HTMLVideoElement | null>, source: PlaybackSource | null, o: Options): void {
  const hlsRef = useRef<HlsType | null>(null);
  // The browser's hint about the link, then hls.js's own measurement of it (link-rule.ts).
  const linkRef = useRef<LinkHints | undefined>(undefined);
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
        const hls = createHls(Hls, video, latest, linkRef);
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
    if (hls) Object.assign(hls.config, bufferLimits(o.preloading, linkRef.current));
  }, [o.preloading, url]);

  // Data saver switched while attached: cap (or uncap) at once.
  useEffect(() => {
    const hls = hlsRef.current;
    if (!hls || hls.levels.length === 0) return;
    // hls.js's own player-size capping rewrites autoLevelCapping every second, so it must be off
    // while data saver or a slow link holds the cap (node_modules/hls.js/src/controller/cap-level-controller.ts).
    applyCap(hls, o.dataSaver, linkRef.current);
  }, [o.dataSaver]);
}

function detach(video: HTMLVideoElement): void {
  video.removeAttribute('src');
  // Without load() the element keeps the old resource (and its connection) alive.
  video.load();
}

function applyCap(hls: HlsType, dataSaver: boolean, link: LinkHints | undefined): void {
  hls.autoLevelCapping = levelCap(hls.levels, dataSaver, link);
  hls.capLevelToPlayerSize = hls.autoLevelCapping < 0;
}

function createHls(Hls: typeof HlsType, video: HTMLVideoElement, latest: RefObject<Options>, linkRef: RefObject<LinkHints | undefined>): HlsType {
  const hint = readLink(navigator);
  const link = (linkRef.current = hint);
  const ratio = window.devicePixelRatio || 1;
  const planFor = (levels: HlsType['levels']) =>
    playerPlan(levels, { link, dataSaver: latest.current.dataSaver, playerWidth: video.clientWidth * ratio, playerHeight: video.clientHeight * ratio });
  // Before the manifest only the link and data saver are known: enough for the estimate and whether a cap of ours holds.
  const first = planFor([]);
  const hls = new Hls({
    // Loading starts after the manifest, once the start level and the cap (data saver, a slow link)
    // are set, so no playlist or segment above the cap is ever requested.
    autoStartLoad: false,
    startLevel: -1,
    // Fits the rendition to the player, except under a cap of ours: the player-size capping would
    // overwrite it on its next check.
    capLevelToPlayerSize: first.capToPlayerSize,
    ...(first.estimate ? { abrEwmaDefaultEstimate: first.estimate } : {}),
    ...bufferLimits(latest.current.preloading, link),
  });
  hls.on(Hls.Events.MANIFEST_PARSED, (_e, data) => {
    const plan = planFor(data.levels);
    hls.capLevelToPlayerSize = plan.capToPlayerSize;
    hls.autoLevelCapping = plan.cap;
    hls.startLevel = plan.startLevel;
    hls.startLoad(-1);
  });
  // The hint is a coarse guess (headless Chromium says 1.45 Mbit/s on any link): once hls.js has
  // timed segments, its estimate decides whether the slow link's cap and small buffer still hold.
  hls.on(Hls.Events.FRAG_LOADED, () => {
    const next = measuredLink(hint, hls.bandwidthEstimate);
    const was = linkRef.current;
    linkRef.current = next;
    if (isSlowLink(was) === isSlowLink(next) && levelCap(hls.levels, false, was) === levelCap(hls.levels, false, next)) return;
    applyCap(hls, latest.current.dataSaver, next);
    Object.assign(hls.config, bufferLimits(latest.current.preloading, next));
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
