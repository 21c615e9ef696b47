import { useSyncExternalStore } from 'react';
import type { PublicSettings } from '#sync/rest-api/settings';
import { HttpClient } from './http/http-client';

/** GET /api/settings/public: what any visitor may know (entry fee, ad ids, distribution date). */
export type { PublicSettings };

const KEY = 'vidi.publicSettings';
const http = new HttpClient();
let current: PublicSettings | null = readCache();
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function readCache(): PublicSettings | null {
  try {
    const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(KEY) : null;
    return raw ? (JSON.parse(raw) as PublicSettings) : null;
  } catch {
    return null;
  }
}

function isPublicSettings(v: unknown): v is PublicSettings {
  const s = v as Partial<PublicSettings> | null;
  return !!s && typeof s.entry_fee === 'object' && s.entry_fee !== null && typeof s.ads === 'object' && s.ads !== null;
}

/** Fetches once per page load; the last answer is cached so screens work offline. */
export function loadPublicSettings(): Promise<void> {
  loading ??= http
    .answer('GET', '/api/settings/public')
    .then(({ ok, data }) => {
      if (!ok || !isPublicSettings(data)) return;
      current = data;
      try {
        localStorage.setItem(KEY, JSON.stringify(data));
      } catch {
        // cache is optional
      }
      for (const l of listeners) l();
    })
    .catch(() => {
      // Offline: keep the cached copy; try again on the next page load.
      loading = null;
    });
  return loading;
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  void loadPublicSettings();
  return () => listeners.delete(l);
}

const snapshot = () => current;
// The prerendered pages were rendered with no settings: hydration starts from the same, then
// the cached or fetched copy arrives as an update.
const serverSnapshot = () => null;

export function usePublicSettings(): PublicSettings | null {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}

/** The fee applies when enabled and above 0 (docs/admin-payments.md, "Entry fee"). */
export function entryFeeOf(s: PublicSettings | null): number | null {
  return s && s.entry_fee.enabled && s.entry_fee.amount > 0 ? s.entry_fee.amount : null;
}
