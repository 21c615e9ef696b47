export function Pager({
  label,
  pageNumber,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  label: string;
  pageNumber: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
}) {
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" className="button" disabled={!hasPrevious} onClick={onPrevious}>
        Previous
      </button>
      <span aria-live="polite">Page {pageNumber}</span>
      <button type="button" className="button" disabled={!hasNext} onClick={onNext}>
        Next
      </button>
    </nav>
  );
}
