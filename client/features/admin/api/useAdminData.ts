import { useCallback, useEffect, useState } from 'react';
import { adminApi } from './admin-client';
import { messageOf } from '#client/lib/http/api-error';
import { adminDataChanged, useAdminDataVersion } from './useAdminDataVersion';
import type {
  AdminSettings,
  AdminSettingsUpdate,
  AdminStats,
  AdminUser,
  AdminVideo,
  AuditEntry,
  Page,
  RewardsBreakdown,
  RewardsSettings,
} from '#sync/rest-api/admin';
import type { ReportQueueItem, ReportState, ResolveReportsBody } from '#sync/rest-api/moderation';
import type { AdminHashtag } from '#sync/rest-api/discovery';

export interface Resource<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
}

/** Loads `load()` whenever `key` or the admin data version changes; the newest answer wins. */
function useResource<T>(load: () => Promise<T>, key: string): Resource<T> {
  const version = useAdminDataVersion();
  const [state, setState] = useState<Resource<T>>({ data: null, error: null, loading: true });
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => current && setState({ data, error: null, loading: false }),
      (e: unknown) => current && setState((s) => ({ data: s.data, error: messageOf(e), loading: false })),
    );
    return () => {
      current = false;
    };
    // `load` is recreated every render; `key` says when what it loads has changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);
  return state;
}

export function useAdminStats(): Resource<AdminStats> {
  return useResource(() => adminApi.stats(), 'stats');
}

export interface PagedList<T> extends Resource<Page<T>> {
  pageNumber: number;
  hasNext: boolean;
  hasPrevious: boolean;
  next(): void;
  previous(): void;
}

/** Keyset pages: the cursors of the pages seen so far make "Previous" exact without offsets. */
function usePagedList<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>, key: string): PagedList<T> {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [forKey, setForKey] = useState(key);
  if (forKey !== key) {
    // A new search starts again at page 1.
    setForKey(key);
    setCursors([null]);
  }
  const cursor = cursors.at(-1) ?? null;
  const page = useResource(() => fetchPage(cursor), `${key}|${cursor ?? ''}`);
  const nextCursor = page.data?.next_cursor ?? null;
  return {
    ...page,
    pageNumber: cursors.length,
    hasNext: !page.loading && nextCursor !== null,
    hasPrevious: cursors.length > 1,
    next: () => {
      if (nextCursor) setCursors((c) => [...c, nextCursor]);
    },
    previous: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
  };
}

export const ADMIN_PAGE_SIZE = 20;

export function useAdminUsers(search: string): PagedList<AdminUser> {
  return usePagedList((cursor) => adminApi.users({ limit: ADMIN_PAGE_SIZE, cursor, q: search }), `users|${search}`);
}

export function useAdminVideos(): PagedList<AdminVideo> {
  return usePagedList((cursor) => adminApi.videos({ limit: ADMIN_PAGE_SIZE, cursor }), 'videos');
}

export function useAdminAudit(): PagedList<AuditEntry> {
  return usePagedList((cursor) => adminApi.audit({ limit: ADMIN_PAGE_SIZE, cursor }), 'audit');
}

/** The moderation queue in one state: open entries oldest first, resolved ones newest first. */
export function useAdminReports(state: ReportState): PagedList<ReportQueueItem> {
  return usePagedList((cursor) => adminApi.reports({ state, limit: ADMIN_PAGE_SIZE, cursor }), `reports|${state}`);
}

/** Hashtags starting with `search`, or the most used first when it is empty. */
export function useAdminHashtags(search: string): PagedList<AdminHashtag> {
  return usePagedList((cursor) => adminApi.hashtags({ limit: ADMIN_PAGE_SIZE, cursor, q: search }), `hashtags|${search}`);
}

export function useRewardsSettings(): Resource<RewardsSettings> {
  return useResource(() => adminApi.rewards(), 'rewards');
}

/** Each leader's points by source; reloads after any admin write (a void, a new cap). */
export function useRewardsBreakdown(): Resource<RewardsBreakdown> {
  return useResource(() => adminApi.rewardsBreakdown(), 'rewards-breakdown');
}

export function useAdminSettings(): Resource<AdminSettings> {
  return useResource(() => adminApi.settings(), 'settings');
}

/** The admin's write actions; each reloads the lists and stats when it succeeds, and throws ApiError otherwise. */
export function useAdminActions() {
  const after = useCallback(async <T>(p: Promise<T>): Promise<T> => {
    const out = await p;
    adminDataChanged();
    return out;
  }, []);
  return {
    suspendUser: (id: string) => after(adminApi.suspendUser(id)),
    reactivateUser: (id: string) => after(adminApi.reactivateUser(id)),
    deleteUser: (id: string) => after(adminApi.deleteUser(id)),
    deleteVideo: (id: string) => after(adminApi.deleteVideo(id)),
    saveRewards: (body: RewardsSettings) => after(adminApi.saveRewards(body)),
    saveSettings: (body: AdminSettingsUpdate) => after(adminApi.saveSettings(body)),
    voidPoints: (userId: string) => after(adminApi.voidPoints(userId)),
    resolveReports: (body: ResolveReportsBody) => after(adminApi.resolveReports(body)),
    setHashtagHidden: (tag: string, hidden: boolean) => after(adminApi.setHashtagHidden(tag, hidden)),
  };
}
