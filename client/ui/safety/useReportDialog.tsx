import type { ComponentProps, ReactNode } from 'react';
import { useDialogTarget } from '../useDialogTarget';
import { lazyPiece, PieceBoundary } from '../lazy-piece';
import type { ReportDialog as ReportDialogView, ReportTarget } from './ReportDialog';

// The dialog (and Radix) loads on the first report, off the first screen's path.
const { Piece: ReportDialog, retry: retryReportDialog } = lazyPiece<ComponentProps<typeof ReportDialogView>>(() =>
  import('./ReportDialog').then((m) => ({ default: m.ReportDialog })),
);

/** The report dialog of a screen: `open` for its buttons, `dialog` to render. */
export function useReportDialog(): { open(target: ReportTarget): void; dialog: ReactNode } {
  const { target, used, open, close, onFailed } = useDialogTarget<ReportTarget>(retryReportDialog);
  const dialog = used ? (
    <PieceBoundary what="the report form" onFailed={onFailed}>
      <ReportDialog target={target} onClose={close} />
    </PieceBoundary>
  ) : null;
  return { open, dialog };
}
