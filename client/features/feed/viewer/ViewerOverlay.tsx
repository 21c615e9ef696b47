import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { plural } from '#client/lib/format';
import { HashtagText } from '#client/ui/HashtagText';
import { CommentIcon, HeartIcon, ShareIcon } from '#client/ui/icons';
import { FollowButton } from '#client/ui/people/FollowButton';
import type { FeedActions, FeedCard } from '../components/types';
import { ViewerMenu } from './ViewerMenu';

interface Props {
  video: FeedCard;
  own: boolean;
  actions: FeedActions;
  titleId: string;
}

/** The creator, Follow, the title and the description (two lines until expanded), over the bottom of the video. */
function ViewerInfo({ video, own, titleId }: Omit<Props, 'actions'>) {
  const [expanded, setExpanded] = useState(false);
  const author = video.user_name?.trim() || 'Unknown User';
  return (
    <div className="viewer-info">
      <div className="viewer-author">
        {video.user_handle ? (
          <Link to="/@{$handle}" params={{ handle: video.user_handle }} className="viewer-author-link">
            {author}
          </Link>
        ) : (
          <span className="viewer-author-link">{author}</span>
        )}
        {!own && video.user_id ? <FollowButton userId={video.user_id} name={author} /> : null}
      </div>
      <h2 id={titleId} className="viewer-title">
        <HashtagText text={video.title} />
      </h2>
      {video.description ? (
        <>
          <p className={`viewer-description${expanded ? ' expanded' : ''}`}>
            <HashtagText text={video.description} />
          </p>
          <button type="button" className="viewer-more" aria-expanded={expanded} onClick={() => setExpanded((e) => !e)}>
            {expanded ? 'Less' : 'More'}
          </button>
        </>
      ) : null}
    </div>
  );
}

/** Like, Comment, Share and More options: a column at the right edge, where a thumb reaches. */
function ViewerActions({ video, own, actions }: Omit<Props, 'titleId'>) {
  return (
    <div className="viewer-actions">
      <button
        type="button"
        className={`viewer-action${video.liked_by_me ? ' liked' : ''}`}
        aria-pressed={video.liked_by_me}
        aria-label={`Like, ${plural(video.likes_count, 'like', 'likes')}`}
        onClick={() => actions.setLike(video.id, !video.liked_by_me)}
      >
        <HeartIcon size={28} fill={video.liked_by_me ? 'currentColor' : 'none'} />
        <span>{video.likes_count}</span>
      </button>
      <button
        type="button"
        className="viewer-action"
        aria-haspopup="dialog"
        aria-label={`Comments, ${plural(video.comments_count, 'comment', 'comments')}`}
        onClick={() => actions.openComments(video)}
      >
        <CommentIcon size={28} />
        <span>{video.comments_count}</span>
      </button>
      <button
        type="button"
        className="viewer-action"
        aria-label={`Share, ${plural(video.shares_count, 'share', 'shares')}`}
        onClick={() => actions.share(video)}
      >
        <ShareIcon size={28} />
        <span>{video.shares_count}</span>
      </button>
      <ViewerMenu video={video} own={own} actions={actions} />
    </div>
  );
}

/** What lies over a viewer slide's video. */
export function ViewerOverlay(props: Props) {
  return (
    <>
      <ViewerInfo video={props.video} own={props.own} titleId={props.titleId} />
      <ViewerActions video={props.video} own={props.own} actions={props.actions} />
    </>
  );
}
