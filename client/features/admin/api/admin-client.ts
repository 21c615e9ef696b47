import { memberHttp } from '#client/lib/session';
import type {
  AdminSettings,
  AdminSettingsUpdate,
  AdminStats,
  AdminUserPage,
  AdminVideoPage,
  AuditPage,
  RewardsBreakdown,
  RewardsSettings,
  VoidResult,
} from '#sync/rest-api/admin';
import type { ReportQueuePage, ReportState, ResolveReportsAnswer, ResolveReportsBody } from '#sync/rest-api/moderation';
import type { AdminHashtag, AdminHashtagPage } from '#sync/rest-api/discovery';

// Admin screens are online-only: every call goes straight to the server with the member's token.
// A failure throws an ApiError whose message is the server's sentence, ready for a toast.
const request = <T>(method: string, path: string, body?: unknown) => memberHttp.json<T>(method, path, body);

const qs = (params: Record<string, string | number | null | undefined>) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
};

export const adminApi = {
  stats: () => request<AdminStats>('GET', '/api/admin/stats'),
  users: (opts: { limit: number; cursor: string | null; q: string }) => request<AdminUserPage>('GET', `/api/admin/users${qs(opts)}`),
  suspendUser: (id: string) => request<unknown>('POST', `/api/admin/users/${encodeURIComponent(id)}/suspend`),
  reactivateUser: (id: string) => request<unknown>('POST', `/api/admin/users/${encodeURIComponent(id)}/reactivate`),
  deleteUser: (id: string) => request<unknown>('DELETE', `/api/admin/users/${encodeURIComponent(id)}`),
  videos: (opts: { limit: number; cursor: string | null }) => request<AdminVideoPage>('GET', `/api/admin/videos${qs(opts)}`),
  deleteVideo: (id: string) => request<unknown>('DELETE', `/api/admin/videos/${encodeURIComponent(id)}`),
  audit: (opts: { limit: number; cursor: string | null }) => request<AuditPage>('GET', `/api/admin/audit${qs(opts)}`),
  rewards: () => request<RewardsSettings>('GET', '/api/admin/rewards'),
  saveRewards: (body: RewardsSettings) => request<RewardsSettings>('PUT', '/api/admin/rewards', body),
  settings: () => request<AdminSettings>('GET', '/api/admin/settings'),
  saveSettings: (body: AdminSettingsUpdate) => request<AdminSettings>('PUT', '/api/admin/settings', body),
  rewardsBreakdown: () => request<RewardsBreakdown>('GET', '/api/admin/rewards/breakdown'),
  reports: (opts: { state: ReportState; limit: number; cursor: string | null }) => request<ReportQueuePage>('GET', `/api/admin/reports${qs(opts)}`),
  resolveReports: (body: ResolveReportsBody) => request<ResolveReportsAnswer>('POST', '/api/admin/reports/resolve', body),
  voidPoints: (userId: string) => request<VoidResult>('POST', '/api/admin/rewards/voids', { user_id: userId }),
  hashtags: (opts: { limit: number; cursor: string | null; q: string }) => request<AdminHashtagPage>('GET', `/api/admin/hashtags${qs(opts)}`),
  setHashtagHidden: (tag: string, hidden: boolean) =>
    request<AdminHashtag>('POST', `/api/admin/hashtags/${encodeURIComponent(tag)}/${hidden ? 'hide' : 'unhide'}`),
};
