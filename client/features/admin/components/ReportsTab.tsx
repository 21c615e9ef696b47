import { useState } from 'react';
import { toast } from 'sonner';
import { messageOf } from '#client/lib/http/api-error';
import { MAX_REPORT_NOTE } from '#sync/protocol/report-reasons';
import type { ReportAction, ReportQueueItem, ReportState } from '#sync/rest-api/moderation';
import { useAdminActions, useAdminReports } from '../api';
import { Pager } from './Pager';
import { ListStatus } from './admin-parts';
import { ReportEvidence } from './ReportEvidence';
import { ACTION_LABEL, RESOLVED_TEXT, actionsFor, confirmText, entryName } from './report-text';

const STATES: Array<{ state: ReportState; label: string }> = [
  { state: 'open', label: 'Open' },
  { state: 'actioned', label: 'Actioned' },
  { state: 'dismissed', label: 'Dismissed' },
];

const keyOf = (item: ReportQueueItem) => `${item.target_type}:${item.target_id}`;

/** An open entry's actions: an optional note, then Dismiss / Remove / Suspend, each after a confirmation. */
function ResolveForm({ item, busy, onResolve }: { item: ReportQueueItem; busy: boolean; onResolve(action: ReportAction, note: string): void }) {
  const [note, setNote] = useState('');
  const id = `report-note-${item.target_type}-${item.target_id}`;
  return (
    <div className="report-actions">
      <label htmlFor={id}>Note (optional, kept with the outcome)</label>
      <textarea id={id} value={note} maxLength={MAX_REPORT_NOTE} rows={2} onChange={(e) => setNote(e.target.value)} disabled={busy} />
      <div className="report-buttons">
        {actionsFor(item).map((action) => (
          <button
            key={action}
            type="button"
            className={`button small${action === 'dismiss' ? '' : ' danger'}`}
            disabled={busy}
            onClick={() => window.confirm(confirmText(item, action)) && onResolve(action, note.trim())}
          >
            {ACTION_LABEL[action]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** The Reports tab (docs/moderation.md): the queue, one entry per reported target, with its evidence and the three actions. */
export function ReportsTab() {
  const [state, setState] = useState<ReportState>('open');
  const list = useAdminReports(state);
  const actions = useAdminActions();
  const [working, setWorking] = useState<string | null>(null);

  const resolve = async (item: ReportQueueItem, action: ReportAction, note: string) => {
    if (working) return;
    setWorking(keyOf(item));
    try {
      await actions.resolveReports({ targetType: item.target_type, targetId: item.target_id, action, ...(note ? { note } : {}) });
      toast.success(RESOLVED_TEXT[action]);
    } catch (e) {
      toast.error('Resolve Failed', { description: messageOf(e) });
    } finally {
      setWorking(null);
    }
  };

  const items = list.data?.items ?? [];
  return (
    <section aria-label="Reports" className="admin-section">
      <div className="report-states" role="group" aria-label="Which reports">
        {STATES.map((s) => (
          <button key={s.state} type="button" className="button small" aria-pressed={state === s.state} onClick={() => setState(s.state)}>
            {s.label}
          </button>
        ))}
      </div>
      <ListStatus
        error={list.error}
        loading={list.loading && !list.data}
        empty={items.length === 0}
        loadingLabel="Loading reports"
        emptyText={state === 'open' ? 'No open reports' : 'No reports here yet'}
      >
        <ul className="admin-reports">
          {items.map((item) => (
            <li key={keyOf(item)}>
              <article className="admin-report" aria-label={entryName(item)} data-target-id={item.target_id}>
                <ReportEvidence item={item} />
                {item.state === 'open' ? (
                  <ResolveForm item={item} busy={working === keyOf(item)} onResolve={(action, note) => void resolve(item, action, note)} />
                ) : null}
              </article>
            </li>
          ))}
        </ul>
      </ListStatus>
      <Pager label="Reports" pageNumber={list.pageNumber} hasPrevious={list.hasPrevious} hasNext={list.hasNext} onPrevious={list.previous} onNext={list.next} />
    </section>
  );
}
