import { useId } from 'react';

interface Props {
  /** The failed read's status: 404 or 400 (nothing there), 0 (no answer and no copy kept), else an error. */
  status: number;
  /** The title and sentence for nothing there ('Not found', 'Nobody on Vidi has this handle.'). */
  gone: [title: string, text: string];
  /** What is not on this device ('This page was not saved on this device.'), said offline. */
  notKept: string;
  /** What could not be loaded ('Could not load this page.'). */
  failed: string;
  retry(): void;
}

/** A page whose read failed: nothing there, offline and never kept, or an error to try again. */
export function ReadProblem({ status, gone, notKept, failed, retry }: Props) {
  const id = useId();
  const missing = status === 404 || status === 400;
  const [title, text] = missing ? gone : status === 0 ? ["You're offline", `${notKept} It will load when you are back online.`] : ['Error', failed];
  return (
    <section className="empty-state" aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      <p className="muted">{text}</p>
      {missing ? null : (
        <button type="button" className="button primary" onClick={retry}>
          Try again
        </button>
      )}
    </section>
  );
}
