import type { ReactNode } from 'react';
import { useHydrated } from '#client/lib/useHydrated';

/**
 * A form's main button: disabled and relabelled (`busyLabel`) while the form is being sent, and
 * disabled in a prerendered page until React has adopted it (client/lib/useHydrated.ts).
 */
export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: ReactNode }) {
  const live = useHydrated();
  return (
    <button type="submit" className="button primary block" disabled={busy || !live} aria-busy={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}
