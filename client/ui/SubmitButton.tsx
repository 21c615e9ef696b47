import type { ReactNode } from 'react';

/** A form's main button: disabled and relabelled (`busyLabel`) while the form is being sent. */
export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <button type="submit" className="button primary block" disabled={busy} aria-busy={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}
