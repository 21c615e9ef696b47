import { REPORT_REASONS } from '#sync/protocol/report-reasons';
import type { ReportAction, ReportQueueItem } from '#sync/rest-api/moderation';

// The words of the Reports tab (docs/moderation.md), kept apart from its components so they can be tested alone.

const LABELS = new Map<string, string>(REPORT_REASONS.map((r) => [r.code, r.label]));

/** A reason's label ("Spam or scam"), or its code when this build does not know it. */
export const reasonLabel = (code: string) => LABELS.get(code) ?? code;

/** "Reports (3)": the tab says how many targets wait, once the count is known. */
export const reportsTabLabel = (open: number | undefined) => (open === undefined ? 'Reports' : `Reports (${open})`);

const THING = { video: 'video', comment: 'comment', member: 'member' } as const;

/** What the target is like now, for the admin deciding. */
export function targetStateText(item: Pick<ReportQueueItem, 'target_type' | 'target_state'>): string {
  if (item.target_state === 'removed') return `This ${THING[item.target_type]} was deleted: the evidence below is what was reported.`;
  if (item.target_state === 'suspended') return 'This member is suspended.';
  return `This ${THING[item.target_type]} is still up.`;
}

/** The actions an entry offers: a member cannot be removed from here (suspend them), nor a deleted thing removed again. */
export function actionsFor(item: Pick<ReportQueueItem, 'target_type' | 'target_state'>): ReportAction[] {
  const out: ReportAction[] = ['dismiss'];
  if (item.target_type !== 'member' && item.target_state === 'exists') out.push('remove');
  if (!(item.target_type === 'member' && item.target_state !== 'exists')) out.push('suspend');
  return out;
}

export const ACTION_LABEL: Record<ReportAction, string> = { dismiss: 'Dismiss', remove: 'Remove', suspend: 'Suspend' };

/** The confirmation before an action: what it does, and that every reporter is told. */
export function confirmText(item: Pick<ReportQueueItem, 'target_type' | 'reports_count'>, action: ReportAction): string {
  const who = item.reports_count === 1 ? 'The reporter is told the outcome.' : `All ${item.reports_count} reporters are told the outcome.`;
  if (action === 'dismiss') return `Dismiss these reports and take no action? ${who}`;
  if (action === 'remove') return `Delete this ${THING[item.target_type]}? This action cannot be undone. ${who}`;
  const whose = item.target_type === 'member' ? 'this member' : `the member who posted this ${THING[item.target_type]}`;
  return `Suspend ${whose}? They will be signed out everywhere. ${who}`;
}

/** The toast after a resolve. */
export const RESOLVED_TEXT: Record<ReportAction, string> = {
  dismiss: 'Reports dismissed',
  remove: 'Removed, and the reports closed',
  suspend: 'Member suspended, and the reports closed',
};

/** An entry's accessible name: the video's title, whose comment, or the member's name. */
export function entryName(item: Pick<ReportQueueItem, 'target_type' | 'snapshot'>): string {
  const s = item.snapshot;
  if ('uploader' in s) return s.title;
  if ('author' in s) return `Comment by ${s.author.name}`;
  return s.name;
}
