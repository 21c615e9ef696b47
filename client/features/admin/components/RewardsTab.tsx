import type { FormEvent, ReactNode } from 'react';
import { toast } from 'sonner';
import { useAdminActions, useRewardsSettings, type RewardsSettings } from '../api';
import { useSubmitOnce } from '#client/ui/useSubmitOnce';
import { Spinner } from '#client/ui/Spinner';
import { RewardsBreakdown } from './RewardsBreakdown';
import { messageOf } from '#client/lib/http/api-error';
import { announceSaved, LoadError } from './admin-parts';
import { useFormFrom } from './useFormFrom';

interface Form {
  bestUser: string[];
  bestViewer: string[];
  date: string;
}

const toForm = (s: RewardsSettings): Form => ({
  bestUser: s.best_user_prizes.map(String),
  bestViewer: s.best_viewer_prizes.map(String),
  date: s.distribution_date ?? '',
});

/** Whole, non-negative rupees; anything else is refused here before the server refuses it too. */
function parsePrize(text: string): number | null {
  const t = text.trim();
  if (t === '') return 0;
  return /^\d{1,8}$/.test(t) ? Number(t) : null;
}

function PrizeInputs({
  legend,
  board,
  prefix,
  values,
  onChange,
}: {
  legend: string;
  board: string;
  prefix: string;
  values: string[];
  onChange(i: number, v: string): void;
}) {
  return (
    <fieldset className="prize-grid">
      <legend>{legend}</legend>
      {values.map((v, i) => (
        <div className="field prize-field" key={i}>
          <label htmlFor={`${prefix}-${i + 1}`}>
            <span className="sr-only">{board} prize </span>#{i + 1} (₹)
          </label>
          <input id={`${prefix}-${i + 1}`} type="number" inputMode="numeric" min={0} step={1} value={v} onChange={(e) => onChange(i, e.target.value)} />
        </div>
      ))}
    </fieldset>
  );
}

/**
 * Prizes for the 20 best users and 3 best viewers, the next distribution date, and each leader's
 * points by source with a way to void them. `children` is the slot for the rewards feature's own
 * admin actions (recording a distribution).
 */
export function RewardsTab({ children }: { children?: ReactNode }) {
  const settings = useRewardsSettings();
  const actions = useAdminActions();
  const [form, setForm] = useFormFrom(settings.data, toForm);

  const { busy, run } = useSubmitOnce(async () => {
    if (!form) return;
    const bestUser = form.bestUser.map(parsePrize);
    const bestViewer = form.bestViewer.map(parsePrize);
    if ([...bestUser, ...bestViewer].some((p) => p === null)) {
      toast.error('Update Failed', { description: 'Prizes must be whole rupees, 0 or more.' });
      return;
    }
    try {
      const saved = await actions.saveRewards({
        best_user_prizes: bestUser as number[],
        best_viewer_prizes: bestViewer as number[],
        distribution_date: form.date || null,
      });
      setForm(toForm(saved));
      announceSaved();
    } catch (e) {
      toast.error('Update Failed', { description: messageOf(e) });
    }
  });

  if (settings.error && !form) return <LoadError message={settings.error} />;
  if (!form) return <Spinner label="Loading reward settings" />;

  const set = (key: 'bestUser' | 'bestViewer') => (i: number, v: string) => setForm((f) => (f ? { ...f, [key]: f[key].map((x, j) => (j === i ? v : x)) } : f));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void run();
  };

  return (
    <section aria-label="Rewards" className="admin-section">
      <form onSubmit={onSubmit} className="form admin-form" aria-label="Reward settings">
        <PrizeInputs legend="Best Users prizes (top 20)" board="Best Users" prefix="best-user-prize" values={form.bestUser} onChange={set('bestUser')} />
        <PrizeInputs
          legend="Best Viewers prizes (top 3)"
          board="Best Viewers"
          prefix="best-viewer-prize"
          values={form.bestViewer}
          onChange={set('bestViewer')}
        />
        <div className="field">
          <label htmlFor="distribution-date">Distribution date</label>
          <input id="distribution-date" type="date" value={form.date} onChange={(e) => setForm({ ...form, date: e.target.value })} />
          <p className="hint">Leave empty to show &apos;To be announced&apos;.</p>
        </div>
        <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Saving...' : 'Save Rewards'}
        </button>
      </form>
      <RewardsBreakdown />
      {children ? <div className="admin-slot rewards-distribution">{children}</div> : null}
    </section>
  );
}
