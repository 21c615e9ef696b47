import { lazy, Suspense, type ReactNode } from 'react';
import { useDialogTarget } from '../useDialogTarget';
import type { ReportTarget } from './ReportDialog';

// The dialog (and Radix) loads on the first report, off the first screen's path.
const ReportDialog = lazy(() => import('./ReportDialog').then((m) => ({ default: m.ReportDialog })));

/** The report dialog of a screen: `open` for its buttons, `dialog` to render. */
export function useReportDialog(): { open(target: ReportTarget): void; dialog: ReactNode } {
  const { target, used, open, close } = useDialogTarget<ReportTarget>();
  const dialog = used ? (
    <Suspense fallback={null}>
      <ReportDialog target={target} onClose={close} />
    </Suspense>
  ) : null;
  return { open, dialog };
}
