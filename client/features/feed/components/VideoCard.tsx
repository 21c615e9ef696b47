import { memo } from 'react';
import { Link } from '@tanstack/react-router';
import { ClockIcon, CommentIcon, EyeIcon, FlagIcon, HeartIcon, RetryIcon, ShareIcon, TrashIcon } from '#client/ui/icons';
import { formatDate, initialOf, isoDate, plural } from '#client/lib/format';
import { HashtagText } from '#client/ui/HashtagText';
import type { FeedActions, FeedCard } from './types';
import { VideoPlayer } from './VideoPlayer';
import { EditVideoAction } from './EditVideoAction';
import type { LoadMode } from './load-mode';
import { FailedState, ProcessingState } from './processing-state';
import { WatchLink } from '../viewer/WatchLink';

interface Props {
  video: FeedCard;
  index: number;
  /** What the card loads before play is pressed (load-mode.ts). */
  mode: LoadMode;
  own: boolean;
  actions: FeedActions;
  /** The list the full-screen viewer walks from this card (client/features/feed/viewer/watch-list.ts); no Watch without it. */
  watchList?: string;
}

function UploadState({ upload }: { upload: NonNullable<FeedCard['upload']> }) {
  const pct = Math.round(upload.progress);
  const label =
    upload.status === 'failed'
      ? `Upload failed: ${upload.error || 'Something went wrong. Please try again.'}`
      : upload.status === 'uploading'
        ? `Uploading... ${pct}%`
        : 'Waiting to upload';
  return (
    <div className={`upload-state${upload.status === 'failed' ? ' failed' : ''}`} role="status">
      <span>{label}</span>
      {upload.status === 'uploading' ? <progress max={100} value={pct} aria-label="Upload progress" /> : null}
    </div>
  );
}

/**
 * A queued or failed upload is no video yet (the server has none by its id): its card offers only
 * what applies to the upload, never Like, Comment or Share (docs/pwa.md, "Feed").
 */
function UploadActions({ video, upload, actions }: { video: FeedCard; upload: NonNullable<FeedCard['upload']>; actions: FeedActions }) {
  return (
    <div className="card-actions">
      {upload.status === 'failed' ? (
        <button type="button" className="action" onClick={() => actions.retryUpload(video.id)}>
          <RetryIcon /> <span>Retry</span>
        </button>
      ) : null}
      <button type="button" className="action" onClick={() => actions.removeUpload(video.id)}>
        <TrashIcon /> <span>Remove</span>
      </button>
    </div>
  );
}

function VideoActions({ video, actions, watchList }: { video: FeedCard; actions: FeedActions; watchList?: string | undefined }) {
  return (
    <div className="card-actions">
      <button
        type="button"
        className={`action${video.liked_by_me ? ' liked' : ''}`}
        aria-pressed={video.liked_by_me}
        aria-label={`Like, ${plural(video.likes_count, 'like', 'likes')}`}
        onClick={() => actions.setLike(video.id, !video.liked_by_me)}
      >
        <HeartIcon fill={video.liked_by_me ? 'currentColor' : 'none'} /> <span>{video.likes_count}</span>
      </button>
      <button
        type="button"
        className="action"
        aria-haspopup="dialog"
        aria-label={`Comments, ${plural(video.comments_count, 'comment', 'comments')}`}
        onClick={() => actions.openComments(video)}
      >
        <CommentIcon /> <span>{video.comments_count}</span>
      </button>
      <button type="button" className="action" aria-label={`Share, ${plural(video.shares_count, 'share', 'shares')}`} onClick={() => actions.share(video)}>
        <ShareIcon /> <span>{video.shares_count}</span>
      </button>
      {watchList && video.media_status !== 'failed' ? <WatchLink video={video} list={watchList} /> : null}
      <span className="views">
        <EyeIcon size={16} /> {video.views_count}
        <span className="sr-only"> {video.views_count === 1 ? 'view' : 'views'}</span>
      </span>
    </div>
  );
}

function ReportButton({ video, onClick }: { video: FeedCard; onClick(video: FeedCard): void }) {
  return (
    <button type="button" className="icon-button" aria-haspopup="dialog" onClick={() => onClick(video)} aria-label="Report video" title="Report video">
      <FlagIcon />
    </button>
  );
}

/** The server's processing of the video, shown under the player until it is ready (docs/media.md). */
function MediaState({ video }: { video: FeedCard }) {
  if (video.media_status === 'processing') return <ProcessingState progress={video.media_progress} />;
  if (video.media_status === 'failed') return <FailedState error={video.media_error} />;
  return null;
}

/** A feed card (docs/pwa.md, "Feed"): author, date, player, title, description, like / comment / share, views. */
export const VideoCard = memo(function VideoCard({ video, index, mode, own, actions, watchList }: Props) {
  const author = video.user_name?.trim() || 'Unknown User';
  const titleId = `video-title-${video.id}`;
  return (
    <article className="video-card" id={`video-${video.id}`} aria-labelledby={titleId} data-index={index} style={{ animationDelay: `${(index % 10) * 0.1}s` }}>
      <header className="card-head">
        <span className="avatar" aria-hidden="true">
          {initialOf(author)}
        </span>
        <div className="card-meta">
          {video.user_handle && !video.upload ? (
            <Link to="/@{$handle}" params={{ handle: video.user_handle }} className="author">
              {author}
            </Link>
          ) : (
            <span className="author">{author}</span>
          )}
          <time dateTime={isoDate(video.created_at)}>{formatDate(video.created_at)}</time>
        </div>
        {video.pending ? (
          <span className="pending-badge" title="Waiting to sync">
            <ClockIcon size={14} /> Pending
          </span>
        ) : null}
        {own && !video.upload ? (
          <>
            <EditVideoAction video={video} />
            <button type="button" className="icon-button danger" onClick={() => actions.remove(video)} aria-label={`Delete video ${video.title}`}>
              <TrashIcon />
            </button>
          </>
        ) : null}
        {!own && !video.upload && actions.report ? <ReportButton onClick={actions.report} video={video} /> : null}
      </header>
      <VideoPlayer video={video} mode={mode} own={own} onWatched={actions.recordView} />
      {video.upload ? <UploadState upload={video.upload} /> : <MediaState video={video} />}
      <div className="card-body">
        <h2 id={titleId} className="card-title">
          <HashtagText text={video.title} />
        </h2>
        {video.description ? (
          <p className="card-description">
            <HashtagText text={video.description} />
          </p>
        ) : null}
      </div>
      {video.upload ? (
        <UploadActions video={video} upload={video.upload} actions={actions} />
      ) : (
        <VideoActions video={video} actions={actions} watchList={watchList} />
      )}
    </article>
  );
});
