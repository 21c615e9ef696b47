import { useState } from 'react';
import { toast } from 'sonner';
import { useAdminActions, useAdminVideos, type AdminVideo } from '../api';
import { CONFIRM_DELETE_VIDEO, formatDate } from '../format';
import { Pager } from './Pager';
import { VideoIcon } from '#client/ui/icons';
import { DeleteButton, ListStatus } from './admin-parts';
import { messageOf } from '#client/lib/http/api-error';

function Preview({ video }: { video: AdminVideo }) {
  const [open, setOpen] = useState(false);
  if (open) {
    return (
      <video
        className="admin-preview"
        src={video.video_url}
        controls
        autoPlay
        playsInline
        preload="metadata"
        {...(video.poster_url ? { poster: video.poster_url } : {})}
        aria-label={`Preview of ${video.title}`}
      />
    );
  }
  return (
    <button type="button" className="preview-button" onClick={() => setOpen(true)} aria-label={`Preview ${video.title}`}>
      {video.poster_url ? <img src={video.poster_url} alt="" loading="lazy" /> : <VideoIcon />}
    </button>
  );
}

/** Processing state, said only when the video is not simply ready. */
function MediaState({ video }: { video: AdminVideo }) {
  if (video.media_status === 'processing') return <p className="muted">Processing…</p>;
  if (video.media_status === 'failed') return <p className="admin-media-failed">Processing failed: {video.media_error ?? 'unknown reason'}</p>;
  return null;
}

export function VideosTab() {
  const list = useAdminVideos();
  const actions = useAdminActions();
  const [working, setWorking] = useState<string | null>(null);

  const onDelete = async (v: AdminVideo) => {
    if (working || !window.confirm(CONFIRM_DELETE_VIDEO)) return;
    setWorking(v.id);
    try {
      await actions.deleteVideo(v.id);
      toast.success('Video deleted', { description: 'Video has been removed from the platform' });
    } catch (e) {
      toast.error('Delete Failed', { description: messageOf(e) });
    } finally {
      setWorking(null);
    }
  };

  const items = list.data?.items ?? [];
  return (
    <section aria-label="Videos" className="admin-section">
      <ListStatus error={list.error} loading={list.loading && !list.data} empty={items.length === 0} loadingLabel="Loading videos" emptyText="No videos yet">
        <ul className="admin-videos">
          {items.map((v) => (
            <li key={v.id} className="admin-video" data-video-id={v.id}>
              <Preview video={v} />
              <div className="admin-video-meta">
                <h3>{v.title}</h3>
                <p className="muted">
                  {v.user_name} · {formatDate(v.created_at)} · {Math.round(v.duration_ms / 1000)} s
                </p>
                <p className="muted">
                  {v.likes_count} likes · {v.comments_count} comments · {v.shares_count} shares · {v.views_count} views
                </p>
                <MediaState video={v} />
                <p>
                  <a href={v.video_url} target="_blank" rel="noreferrer">
                    Open video
                  </a>
                </p>
              </div>
              <DeleteButton name={v.title} busy={working === v.id} onDelete={() => void onDelete(v)} />
            </li>
          ))}
        </ul>
      </ListStatus>
      <Pager label="Videos" pageNumber={list.pageNumber} hasPrevious={list.hasPrevious} hasNext={list.hasNext} onPrevious={list.previous} onNext={list.next} />
    </section>
  );
}
