import type { Insertable, Selectable, Updateable } from 'kysely';
import type {
  ProfilesTable,
  CredentialsTable,
  RefreshTokensTable,
  EmailTokensTable,
  FollowsTable,
  BlocksTable,
  MutesTable,
  ReportsTable,
  ReportTargetsTable,
} from './tables/accounts';
import type {
  VideosTable,
  UploadsTable,
  LikesTable,
  CommentsTable,
  CommentLikesTable,
  ViewsTable,
  SharesTable,
  HashtagsTable,
  VideoHashtagsTable,
  VideoHashtagsTopTable,
} from './tables/videos';
import type {
  PrizesTable,
  ScoresTable,
  ViewerDaysTable,
  ViewCreditsTable,
  RewardVoidsTable,
  DistributionsTable,
  DistributionWinnersTable,
} from './tables/rewards';
import type {
  SettingsTable,
  PaymentsTable,
  WebhookEventsTable,
  SyncClientsTable,
  ChangeLogTable,
  AuditLogTable,
  MediaJobsTable,
  RateLimitsTable,
} from './tables/operations';
import type { NotificationsTable, PushSubscriptionsTable, NotificationPrefsTable } from './tables/notifications';

// The database's tables, as Kysely sees them; each table's row type lives in db/tables/ by area.
// Times are integer milliseconds since the epoch: sortable, compact, and the same in every dialect.
// Booleans are 0/1 integers for the same reason.

export type * from './tables/accounts';
export type * from './tables/videos';
export type * from './tables/rewards';
export type * from './tables/operations';
export type * from './tables/notifications';

export interface Database {
  profiles: ProfilesTable;
  follows: FollowsTable;
  blocks: BlocksTable;
  mutes: MutesTable;
  reports: ReportsTable;
  report_targets: ReportTargetsTable;
  credentials: CredentialsTable;
  refresh_tokens: RefreshTokensTable;
  email_tokens: EmailTokensTable;
  videos: VideosTable;
  uploads: UploadsTable;
  likes: LikesTable;
  comments: CommentsTable;
  comment_likes: CommentLikesTable;
  views: ViewsTable;
  shares: SharesTable;
  hashtags: HashtagsTable;
  video_hashtags: VideoHashtagsTable;
  video_hashtags_top: VideoHashtagsTopTable;
  settings: SettingsTable;
  prizes: PrizesTable;
  scores: ScoresTable;
  viewer_days: ViewerDaysTable;
  view_credits: ViewCreditsTable;
  reward_voids: RewardVoidsTable;
  distributions: DistributionsTable;
  distribution_winners: DistributionWinnersTable;
  payments: PaymentsTable;
  webhook_events: WebhookEventsTable;
  sync_clients: SyncClientsTable;
  change_log: ChangeLogTable;
  audit_log: AuditLogTable;
  media_jobs: MediaJobsTable;
  rate_limits: RateLimitsTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  notification_prefs: NotificationPrefsTable;
}

export type Profile = Selectable<ProfilesTable>;
export type NewProfile = Insertable<ProfilesTable>;
export type ProfileUpdate = Updateable<ProfilesTable>;
export type Video = Selectable<VideosTable>;
export type Comment = Selectable<CommentsTable>;
