import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ReportQueueItem } from '#sync/rest-api/moderation';
import { ReportEvidence } from './ReportEvidence';
import { actionsFor, confirmText, entryName, reasonLabel, reportsTabLabel, targetStateText } from './report-text';

// The Reports tab's words and choices (docs/moderation.md), and the evidence an entry shows.

const entry = (over: Partial<ReportQueueItem> = {}): ReportQueueItem => ({
  target_type: 'video',
  target_id: 'v1',
  state: 'open',
  reports_count: 3,
  reasons: [
    { code: 'spam', count: 2 },
    { code: 'hate', count: 1 },
  ],
  notes: [{ code: 'spam', note: 'a <scam> link' }],
  snapshot: { title: 'Free money', description: 'click here', uploader: { id: 'u1', name: 'Ravi', handle: 'ravi' }, poster_url: '/media/u1/p.jpg' },
  target_state: 'exists',
  first_reported_at: Date.UTC(2026, 0, 5),
  last_reported_at: Date.UTC(2026, 0, 6),
  resolved_at: null,
  resolution_note: null,
  ...over,
});

describe('the Reports tab', () => {
  it('labels the tab with the open count once known', () => {
    expect(reportsTabLabel(undefined)).toBe('Reports');
    expect(reportsTabLabel(0)).toBe('Reports (0)');
    expect(reportsTabLabel(3)).toBe('Reports (3)');
  });

  it('offers Remove only for a video or comment still up, and never Suspend for a member already gone', () => {
    expect(actionsFor(entry())).toEqual(['dismiss', 'remove', 'suspend']);
    expect(actionsFor(entry({ target_state: 'removed' }))).toEqual(['dismiss', 'suspend']);
    expect(actionsFor(entry({ target_type: 'member' }))).toEqual(['dismiss', 'suspend']);
    expect(actionsFor(entry({ target_type: 'member', target_state: 'suspended' }))).toEqual(['dismiss']);
  });

  it('says what each action does and that the reporters are told', () => {
    expect(confirmText(entry(), 'remove')).toBe('Delete this video? This action cannot be undone. All 3 reporters are told the outcome.');
    expect(confirmText(entry({ reports_count: 1 }), 'dismiss')).toBe('Dismiss these reports and take no action? The reporter is told the outcome.');
    expect(confirmText(entry({ target_type: 'comment' }), 'suspend')).toContain('the member who posted this comment');
    expect(targetStateText(entry({ target_state: 'removed' }))).toBe('This video was deleted: the evidence below is what was reported.');
    expect(reasonLabel('spam')).toBe('Spam or scam');
    expect(reasonLabel('unknown_code')).toBe('unknown_code');
    expect(entryName(entry())).toBe('Free money');
  });

  it('shows the evidence: the snapshot, the reasons with counts, the notes (escaped), the target state', () => {
    const html = renderToStaticMarkup(<ReportEvidence item={entry()} />);
    expect(html).toContain('<h3>Free money</h3>');
    expect(html).toContain('Video by Ravi (@ravi)');
    expect(html).toContain('src="/media/u1/p.jpg"');
    expect(html).toContain('Spam or scam: 2');
    expect(html).toContain('Hate speech or symbols: 1');
    expect(html).toContain('a &lt;scam&gt; link');
    expect(html).toContain('This video is still up.');
    expect(html).toContain('3 reports');
  });

  it('shows a comment with its author and video, and a member by name and handle', () => {
    const comment = entry({
      target_type: 'comment',
      snapshot: { text: 'you are awful', author: { id: 'a', name: 'Asha', handle: null }, video_id: 'v', video_title: 'Dance' },
    });
    expect(renderToStaticMarkup(<ReportEvidence item={comment} />)).toContain('Comment by Asha on “Dance”');
    expect(entryName(comment)).toBe('Comment by Asha');
    const member = entry({ target_type: 'member', target_state: 'suspended', snapshot: { id: 'm', name: 'Troll', handle: 'troll' } });
    const html = renderToStaticMarkup(<ReportEvidence item={member} />);
    expect(html).toContain('Troll (@troll)');
    expect(html).toContain('This member is suspended.');
    expect(entryName(member)).toBe('Troll');
  });
});
