import { useCallback, useEffect, useState } from 'react';
import { onOfflineVideosChanged, storageUsage, type StorageUsage } from '#client/lib/offline-media';

export type StorageUsageState = { status: 'loading' } | { status: 'ready'; usage: StorageUsage } | { status: 'failed' };

/** The device's storage figures, estimated on mount and again after every save or clear. */
export function useStorageUsage(): { state: StorageUsageState; refresh: () => Promise<void> } {
  const [state, setState] = useState<StorageUsageState>({ status: 'loading' });

  const refresh = useCallback(async () => {
    try {
      const usage = await storageUsage();
      setState({ status: 'ready', usage });
    } catch {
      setState({ status: 'failed' });
    }
  }, []);

  useEffect(() => {
    let live = true;
    const load = () => {
      storageUsage().then(
        (usage) => live && setState({ status: 'ready', usage }),
        () => live && setState({ status: 'failed' }),
      );
    };
    load();
    const stop = onOfflineVideosChanged(load);
    return () => {
      live = false;
      stop();
    };
  }, []);

  return { state, refresh };
}

const number = (digits: number) => new Intl.NumberFormat(undefined, { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Decimal megabytes with one decimal ("12.3 MB"), as storage settings on phones show them. */
export function formatMegabytes(bytes: number): string {
  return `${number(1).format(bytes / 1_000_000)} MB`;
}

/** A quota is often tens of gigabytes: whole gigabytes from 1 GB up. */
export function formatQuota(bytes: number): string {
  return bytes >= 1_000_000_000 ? `${number(0).format(bytes / 1_000_000_000)} GB` : formatMegabytes(bytes);
}
