import { useEffect, useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { newId } from '#client/sync/ids';
import { useSyncEngine } from '#client/sync/useSyncEngine';
import { MAX_REPORT_NOTE, REPORT_REASONS, type ReportReason, type ReportTargetType } from '#sync/protocol/report-reasons';
import { CloseIcon } from '../icons';
import { toast } from '../toast';
import { useSafetyActions, useSafetyState } from './useSafety';
import './safety.css';

/** What is reported, and the member it is about (whom the confirmation offers to block). */
export interface ReportTarget {
  type: ReportTargetType;
  id: string;
  userId: string;
  /** '' when the member is gone: nothing to offer then. */
  handle: string;
}

const TITLES: Record<ReportTargetType, (handle: string) => string> = {
  video: () => 'Report video',
  comment: () => 'Report comment',
  member: (handle) => `Report @${handle}`,
};

/**
 * The report dialog (docs/decisions/0024-safety.md): a reason, an optional note, Send. The report is queued
 * (offline too: `report` does nothing on the device), then the dialog thanks the member and offers
 * to block whom it is about.
 */
export function ReportDialog({ target, onClose }: { target: ReportTarget | null; onClose(): void }) {
  const [sent, setSent] = useState(false);
  useEffect(() => setSent(false), [target]);
  return (
    <Dialog.Root open={target !== null} onOpenChange={(o) => (o ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content report-dialog">
          <div className="dialog-head">
            <Dialog.Title>{target ? (sent ? 'Report sent' : TITLES[target.type](target.handle)) : 'Report'}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <CloseIcon />
            </Dialog.Close>
          </div>
          {target && sent ? <ReportSent target={target} onClose={onClose} /> : null}
          {target && !sent ? <ReportForm target={target} onSent={() => setSent(true)} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ReportForm({ target, onSent }: { target: ReportTarget; onSent(): void }) {
  const engine = useSyncEngine();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!engine || !reason) return;
    const trimmed = note.trim();
    engine
      .mutate('report', { reportId: newId(), targetType: target.type, targetId: target.id, reason, ...(trimmed ? { note: trimmed } : {}) })
      .then(onSent, (err: unknown) => toast.error('Report not sent', { description: err instanceof Error ? err.message : 'Something went wrong' }));
  };
  return (
    <form className="form report-form" onSubmit={onSubmit} aria-label="Report">
      <Dialog.Description className="muted">Why are you reporting this? The member you report is not told who reported them.</Dialog.Description>
      <fieldset className="report-reasons">
        <legend>Reason</legend>
        {REPORT_REASONS.map((r) => (
          <label key={r.code} className="report-reason">
            <input type="radio" name="reason" value={r.code} checked={reason === r.code} onChange={() => setReason(r.code)} />
            {r.label}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="report-note">Add a note (optional)</label>
        <textarea
          id="report-note"
          name="note"
          rows={3}
          maxLength={MAX_REPORT_NOTE}
          aria-describedby="report-note-count"
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        <span id="report-note-count" className="muted field-hint">
          {note.length}/{MAX_REPORT_NOTE} characters
        </span>
      </div>
      <button type="submit" className="button primary" disabled={!reason || !engine}>
        Send report
      </button>
    </form>
  );
}

function ReportSent({ target, onClose }: { target: ReportTarget; onClose(): void }) {
  const engine = useSyncEngine();
  const state = useSafetyState(target.userId);
  const safety = useSafetyActions();
  // Not for oneself (one's own video's report), a member who is gone, or one already blocked.
  const offerBlock = !!target.handle && engine?.userId !== target.userId && state?.blocked === false;
  return (
    <div className="report-sent">
      <Dialog.Description>
        Thanks for reporting. Our team will review it, and you will hear what happens. The member you reported won't know it was you.
      </Dialog.Description>
      <div className="report-sent-actions">
        {offerBlock ? (
          <button type="button" className="button secondary" onClick={() => safety.block(target.userId, target.handle) && onClose()}>
            Block @{target.handle}
          </button>
        ) : null}
        <button type="button" className="button primary" onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}
