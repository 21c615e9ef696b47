import type { ReportQueueItem, ReportSnapshot } from '#sync/rest-api/moderation';
import { formatDate } from '../format';
import { reasonLabel, targetStateText } from './report-text';

const handleOf = (p: { handle: string | null }) => (p.handle ? ` (@${p.handle})` : '');

/** What was reported, as it was at the first report (it survives the target's deletion). */
function Snapshot({ type, snapshot }: { type: ReportQueueItem['target_type']; snapshot: ReportSnapshot }) {
  if (type === 'video' && 'uploader' in snapshot) {
    return (
      <div className="report-snapshot">
        {snapshot.poster_url ? <img src={snapshot.poster_url} alt="" loading="lazy" className="report-poster" /> : null}
        <h3>{snapshot.title}</h3>
        {snapshot.description ? <p>{snapshot.description}</p> : null}
        <p className="muted">
          Video by {snapshot.uploader.name}
          {handleOf(snapshot.uploader)}
        </p>
      </div>
    );
  }
  if (type === 'comment' && 'author' in snapshot) {
    return (
      <div className="report-snapshot">
        <blockquote>{snapshot.text}</blockquote>
        <p className="muted">
          Comment by {snapshot.author.name}
          {handleOf(snapshot.author)}
          {snapshot.video_title ? ` on “${snapshot.video_title}”` : ''}
        </p>
      </div>
    );
  }
  const member = snapshot as { name: string; handle: string | null };
  return (
    <div className="report-snapshot">
      <h3>
        {member.name}
        {handleOf(member)}
      </h3>
      <p className="muted">Member</p>
    </div>
  );
}

/** One queue entry's evidence: the snapshot, the reasons with their counts, the reporters' notes, the target's state. */
export function ReportEvidence({ item }: { item: ReportQueueItem }) {
  return (
    <div className="report-evidence">
      <Snapshot type={item.target_type} snapshot={item.snapshot} />
      <p className="report-target-state">{targetStateText(item)}</p>
      <p className="muted">
        {item.reports_count === 1 ? '1 report' : `${item.reports_count} reports`} · first {formatDate(item.first_reported_at)} · last{' '}
        {formatDate(item.last_reported_at)}
      </p>
      <ul className="report-reasons" aria-label="Reasons">
        {item.reasons.map((r) => (
          <li key={r.code}>
            {reasonLabel(r.code)}: {r.count}
          </li>
        ))}
      </ul>
      {item.notes.length ? (
        <ul className="report-notes" aria-label="Notes from reporters">
          {item.notes.map((n, i) => (
            <li key={i}>
              <span className="muted">{reasonLabel(n.code)}:</span> {n.note}
            </li>
          ))}
        </ul>
      ) : null}
      {item.resolution_note ? <p className="report-resolution">Admin note: {item.resolution_note}</p> : null}
    </div>
  );
}
