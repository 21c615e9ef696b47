import { useSyncExternalStore } from 'react';
import { networkInformation } from './connection';

/**
 * How this device plays and keeps videos (the profile's "Video playback and storage"). Stored per
 * device, not per account: data costs belong to the device's connection, not to the member.
 */
export interface MediaPreferences {
  /** Cap playback at 360p and load nothing ahead of the video being watched. */
  dataSaver: boolean;
  /** Keep the small MP4 of the newest feed videos on an unmetered connection (offline-media.ts, downloadAhead). */
  downloadAhead: boolean;
}

export const MEDIA_PREFERENCES_KEY = 'vidi.mediaPreferences';

function defaults(): MediaPreferences {
  // A member who asked the browser to save data gets the data saver until they say otherwise.
  return { dataSaver: networkInformation()?.saveData === true, downloadAhead: false };
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage blocked (some privacy modes throw on access): preferences last for this page only.
    return undefined;
  }
}

function read(): MediaPreferences {
  const base = defaults();
  let raw: string | null | undefined;
  try {
    raw = storage()?.getItem(MEDIA_PREFERENCES_KEY);
  } catch {
    raw = null;
  }
  if (!raw) return base;
  try {
    const saved = JSON.parse(raw) as Partial<Record<keyof MediaPreferences, unknown>>;
    // Field by field: a value written by another version of the app never breaks the player.
    return {
      dataSaver: typeof saved.dataSaver === 'boolean' ? saved.dataSaver : base.dataSaver,
      downloadAhead: typeof saved.downloadAhead === 'boolean' ? saved.downloadAhead : base.downloadAhead,
    };
  } catch {
    return base;
  }
}

// One snapshot object per change: useSyncExternalStore compares snapshots by identity.
let current: MediaPreferences | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const l of listeners) l();
}

/** The preferences now (synchronous: the player reads them while choosing a source). */
export function getMediaPreferences(): MediaPreferences {
  current ??= read();
  return current;
}

/** Changes some preferences on this device; subscribers and other tabs follow. */
export function setMediaPreferences(patch: Partial<MediaPreferences>): MediaPreferences {
  const next = { ...getMediaPreferences(), ...patch };
  current = next;
  try {
    storage()?.setItem(MEDIA_PREFERENCES_KEY, JSON.stringify(next));
  } catch {
    // Quota or blocked storage: the change still holds for this page.
  }
  notify();
  return next;
}

/** Calls `listener` after every change, in this tab or another one. Returns the unsubscribe. */
export function subscribeMediaPreferences(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}

// Another tab changed them (the storage event fires only in the other tabs).
function onStorage(e: StorageEvent): void {
  if (e.key !== null && e.key !== MEDIA_PREFERENCES_KEY) return;
  current = read();
  notify();
}

export function useMediaPreferences(): MediaPreferences {
  return useSyncExternalStore(subscribeMediaPreferences, getMediaPreferences, getMediaPreferences);
}
