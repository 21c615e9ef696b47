import { useEffect, useState, type RefObject } from 'react';
import { toast } from '#client/ui/toast';
import { offlineUrlFor, onOfflineVideosChanged, saveForOffline } from '#client/lib/offline-media';

// Small inline icons for the player's corner buttons (decorative: the buttons carry the labels).
const svgProps = { width: 20, height: 20, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, 'aria-hidden': true } as const;
const DownloadIcon = () => (
  <svg {...svgProps}>
    <path d="M12 3v12m0 0-5-5m5 5 5-5M4 21h16" />
  </svg>
);
const CheckIcon = () => (
  <svg {...svgProps}>
    <path d="m5 12 5 5L20 7" />
  </svg>
);

const cornerButton = {
  border: 0,
  borderRadius: 999,
  padding: '0.35rem 0.55rem',
  background: 'rgba(0, 0, 0, 0.55)',
  color: '#fff',
  cursor: 'pointer',
  font: 'inherit',
  fontWeight: 700,
  fontSize: '0.8rem',
  lineHeight: 1,
} as const;

/** The saved copy (offlineUrlFor) of an item's small MP4, followed as saves and clears happen. */
export function useOfflineCopy(mp4Url: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const check = () =>
      void offlineUrlFor({ mp4_url: mp4Url }).then(
        (u) => live && setUrl(u),
        () => live && setUrl(null),
      );
    check();
    const off = onOfflineVideosChanged(check);
    return () => {
      live = false;
      off();
    };
  }, [mp4Url]);
  return url;
}

/** CC: shows or hides the English subtitles track (the track is there only when captions exist). */
export function CaptionsButton({ videoRef }: { videoRef: RefObject<HTMLVideoElement | null> }) {
  const [on, setOn] = useState(true);
  useEffect(() => {
    const tracks = videoRef.current?.textTracks;
    if (!tracks) return;
    for (const t of Array.from(tracks)) if (t.kind === 'subtitles') t.mode = on ? 'showing' : 'hidden';
  }, [on, videoRef]);
  return (
    <button type="button" style={cornerButton} aria-label="Captions" aria-pressed={on} onClick={() => setOn((v) => !v)}>
      CC
    </button>
  );
}

/** Stores the small MP4 for offline viewing (client/lib/offline-media.ts) and says how it went. */
export function SaveOfflineButton({ mp4Url, saved }: { mp4Url: string; saved: boolean }) {
  const [busy, setBusy] = useState(false);
  const save = () => {
    setBusy(true);
    saveForOffline(mp4Url)
      .then(
        () => toast.success('Saved for offline'),
        (e: unknown) => toast.error(e instanceof Error ? e.message : 'Could not save the video on this device.'),
      )
      .finally(() => setBusy(false));
  };
  return (
    <button
      type="button"
      style={cornerButton}
      aria-label={saved ? 'Saved for offline' : 'Save for offline'}
      title={saved ? 'Saved for offline' : 'Save for offline'}
      disabled={saved || busy}
      aria-busy={busy}
      onClick={save}
    >
      {saved ? <CheckIcon /> : <DownloadIcon />}
    </button>
  );
}
