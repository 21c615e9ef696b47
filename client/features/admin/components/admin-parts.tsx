import type { ReactNode } from 'react';
import { Spinner } from '#client/ui/Spinner';
import { toast } from '#client/ui/toast';

/** A list's or a form's loading error, announced to screen readers. */
export function LoadError({ message }: { message: string }) {
  return (
    <p className="notice error" role="alert">
      {message}
    </p>
  );
}

/** What an admin list shows before its rows: its error, a spinner on the first load, or its empty text. */
export function ListStatus(props: { error: string | null; loading: boolean; empty: boolean; loadingLabel: string; emptyText: string; children: ReactNode }) {
  return (
    <>
      {props.error ? <LoadError message={props.error} /> : null}
      {props.loading ? <Spinner label={props.loadingLabel} /> : props.empty ? <p className="empty-text">{props.emptyText}</p> : props.children}
    </>
  );
}

/** A row's Delete button, named for what it deletes. */
export function DeleteButton({ name, busy, onDelete }: { name: string; busy: boolean; onDelete(): void }) {
  return (
    <button type="button" className="button small danger" disabled={busy} onClick={onDelete} aria-label={`Delete ${name}`}>
      Delete
    </button>
  );
}

/** The toast after a settings form was saved (the product's copy). */
export function announceSaved(): void {
  toast.success('Settings updated', { description: 'Admin settings have been saved successfully' });
}

/** An admin table: a caption for screen readers, the column headings, and the rows. */
export function AdminTable({ caption, columns, children }: { caption: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="admin-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
