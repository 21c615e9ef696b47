import { useId, useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { toast } from 'sonner';
import { normalizeHandle, HANDLE_MAX } from '#sync/protocol/handles';
import { useLocalProfile } from '#client/sync/useLocalProfile';
import { useHandleProblem, useSetHandle } from './api/useHandle';

/** /profile, "Handle": the member's @handle (their page's address), checked as it is typed. */
export function HandleSettings() {
  const profile = useLocalProfile();
  const current = profile?.handle ?? '';
  // null until the member types: the field follows the stored handle (a refusal rolls it back) until then.
  const [typed, setTyped] = useState<string | null>(null);
  const handle = normalizeHandle(typed ?? current);
  const problem = useHandleProblem(handle, current, profile?.id ?? null);
  const save = useSetHandle();
  const id = useId();

  if (!profile) return null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (problem || handle === current) return;
    save(handle).then(
      () => {
        setTyped(null);
        toast.success('Handle Updated', { description: `Your page is now /@${handle}.` });
      },
      (err: unknown) => toast.error('Handle not saved', { description: err instanceof Error ? err.message : 'Something went wrong' }),
    );
  };

  return (
    <section className="profile-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Handle</h2>
      <p className="muted">
        Your page is{' '}
        <Link to="/@{$handle}" params={{ handle: current }}>
          /@{current}
        </Link>
        . Others find and mention you by your handle.
      </p>
      <form className="form card handle-form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={id}>Handle</label>
          <div className="handle-input">
            <span aria-hidden="true">@</span>
            <input
              id={id}
              name="handle"
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              maxLength={HANDLE_MAX + 1}
              value={typed ?? current}
              onChange={(e) => setTyped(e.target.value)}
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-hint`}
            />
          </div>
          <p id={`${id}-hint`} className={problem ? 'hint error' : 'hint'} aria-live="polite">
            {problem ?? '3 to 30 letters, digits, _ or ., starting with a letter.'}
          </p>
        </div>
        <button type="submit" className="button primary" disabled={!!problem || handle === current}>
          Save Handle
        </button>
      </form>
    </section>
  );
}
