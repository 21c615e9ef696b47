import { useState } from 'react';
import { useOnline } from '#client/lib/useOnline';
import { useMediaPreferences } from '#client/lib/media-preferences';
import { browserCapabilities, chooseSource, type PlaybackSource } from './media-source';
import { useOfflineCopy } from './player-controls';
import { useLocalUploadUrl } from './processing-state';
import type { FeedCard } from './types';

export interface PlayerSource {
  source: PlaybackSource | null;
  dataSaver: boolean;
  /** The small MP4 is stored on this device. */
  saved: boolean;
  /** hls.js gave up: use the small MP4 from now on. */
  hlsFailed(): void;
}

/** Picks what the card plays (media-source.ts) from the browser, the network, data saver and the device's copies. */
export function usePlayerSource(video: FeedCard, own: boolean): PlayerSource {
  const { dataSaver } = useMediaPreferences();
  const online = useOnline();
  const offlineUrl = useOfflineCopy(video.mp4_url);
  // Only the uploader's device has the file; a queued upload's card shows the upload state instead.
  const localUrl = useLocalUploadUrl(video.id, own && !video.upload && video.media_status === 'processing');
  const [noMse, setNoMse] = useState(false);
  const caps = browserCapabilities();
  const source = chooseSource(video, { nativeHls: caps.nativeHls, mse: caps.mse && !noMse, online, offlineUrl, dataSaver, localUrl });
  return { source, dataSaver, saved: offlineUrl !== null, hlsFailed: () => setNoMse(true) };
}
