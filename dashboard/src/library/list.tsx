import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { api, ws } from '../api';
import { keys, type Loaded, useApi } from '../queries';
import { Field } from '../components/Field';
import { Pagination } from '../components/Pagination';
import { Empty, ErrorMessage, Loading, NOT_OFFERED } from '../components/Status';
import { formatTime } from '../hooks';
import { useSearchState } from '../router';
import type { Paginated, WorkspaceSummary } from '../types';
import './library.css';

export const PAGE_SIZE = 20;

export const time = (iso: string | null | undefined) => (iso ? <time dateTime={iso}>{formatTime(iso)}</time> : '—');

/** A list whose page and search live in the URL (Back returns to them), reloaded after every write. */
export function useLibraryList<T>(workspace: WorkspaceSummary, path: string, query: Record<string, string> = {}) {
  const [search, updateSearch] = useSearchState(['q', 'page'] as const);
  const page = Math.max(1, Number(search.page) || 1);
  const list = useApi(keys.list(workspace.id, path, { page, q: search.q, ...query }), () =>
    api.get<Paginated<T>>(ws(workspace.id, `/${path}`), { page, pageSize: PAGE_SIZE, q: search.q, ...query }),
  );
  return { list, q: search.q, updateSearch };
}

export function SearchForm({ label, q, onSearch }: { label: string; q: string; onSearch(q: string): void }) {
  const [text, setText] = useState(q);
  // Back and Forward change the search in the URL; the box shows the one in effect.
  useEffect(() => setText(q), [q]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="filters" role="search" aria-label={label} onSubmit={submit}>
      <div className="field-row">
        <Field label="Search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Search</button>
      </div>
    </form>
  );
}

export interface Column<T> {
  label: string;
  cell(item: T): ReactNode;
}

interface TableProps<T> {
  title: string;
  plural: string;
  list: Loaded<Paginated<T>> & { reload(): void };
  /** The search or filter in effect, if any: an empty list then says nothing matches rather than "none yet". */
  q: string;
  columns: Column<T>[];
  /** The row's buttons; none without the write permission. */
  actions?: (item: T) => ReactNode;
  onPage(page: number): void;
}

/** The table of a library screen: a row per item, its name as the row header, its buttons in the last cell. */
export function LibraryTable<T extends { id: string }>({
  title,
  plural,
  list,
  q,
  columns,
  actions,
  onPage,
}: TableProps<T>) {
  const [first, ...rest] = columns;
  return (
    <>
      {list.state === 'error' && <ErrorMessage error={list.error} onRetry={list.reload} notFound={NOT_OFFERED} />}
      {list.state === 'loading' && !list.data && <Loading label={`Loading ${plural}…`} />}
      {list.data && list.data.data.length === 0 && <Empty>{q ? `No ${plural} match.` : `No ${plural} yet.`}</Empty>}
      {list.data && list.data.data.length > 0 && first && (
        <table className="table" aria-busy={list.state === 'loading'}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.label} scope="col">
                  {column.label}
                </th>
              ))}
              {actions && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((item) => (
              <tr key={item.id}>
                <th scope="row" data-label={first.label}>
                  {first.cell(item)}
                </th>
                {rest.map((column) => (
                  <td key={column.label} data-label={column.label}>
                    {column.cell(item)}
                  </td>
                ))}
                {actions && (
                  <td className="actions-cell">
                    <div className="row-actions">{actions(item)}</div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && list.data.totalPages > 1 && (
        <Pagination
          label={title}
          page={list.data.page}
          totalPages={list.data.totalPages}
          total={list.data.total}
          onPage={onPage}
        />
      )}
    </>
  );
}

/** A screen's heading, with its create button when the member may write. */
export function ScreenHeader({ title, action }: { title: string; action?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {action}
    </div>
  );
}

/** What a write just did, said once in a live region so a screen reader hears it too. */
export function Done({ message }: { message: string | null }) {
  return (
    <p role="status" className="success-text">
      {message ?? ''}
    </p>
  );
}

/**
 * The dialog a library screen has open (`action`), and what its last write did (`done`): `finish` closes the
 * dialog, says so and reloads the list, so every screen ends a write alike.
 */
export function useScreenActions<A>(reload: () => void) {
  const [action, setAction] = useState<A | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const finish = (message: string) => {
    setAction(null);
    setDone(message);
    reload();
  };
  return { action, setAction, done, finish };
}

/** A row's Edit (or Rename) and Delete buttons, each named for the row to a screen reader. */
export function RowActions({
  name,
  editLabel = 'Edit',
  onEdit,
  onDelete,
}: {
  name: ReactNode;
  editLabel?: string;
  onEdit(): void;
  onDelete(): void;
}) {
  return (
    <>
      <button type="button" onClick={onEdit}>
        {editLabel}
        <span className="visually-hidden"> {name}</span>
      </button>
      <button type="button" className="button-danger-quiet" onClick={onDelete}>
        Delete<span className="visually-hidden"> {name}</span>
      </button>
    </>
  );
}
