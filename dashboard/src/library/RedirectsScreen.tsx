import { can } from '../session';
import type { Redirect, WorkspaceSummary } from '../types';
import { DeleteDialog } from './DeleteDialog';
import {
  Done,
  LibraryTable,
  ScreenHeader,
  SearchForm,
  time,
  useLibraryList,
  type Column,
  useScreenActions,
  RowActions,
} from './list';
import { RedirectForm } from './RedirectForm';

type Action = { kind: 'create' } | { kind: 'edit' | 'delete'; redirect: Redirect };

const KIND_WORDS: Record<number, string> = { 301: 'For good', 308: 'For good', 302: 'For now', 307: 'For now' };

const COLUMNS: Column<Redirect>[] = [
  { label: 'From', cell: (r) => <span className="mono">{r.fromPath}</span> },
  { label: 'To', cell: (r) => <span className="mono wrap">{r.toPath}</span> },
  { label: 'Kind', cell: (r) => `${r.statusCode} · ${KIND_WORDS[r.statusCode] ?? ''}` },
  { label: 'Updated', cell: (r) => time(r.updatedAt) },
];

export function RedirectsScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const { list, q, updateSearch } = useLibraryList<Redirect>(workspace, 'redirects');
  const { action, setAction, done, finish } = useScreenActions<Action>(list.reload);
  const writable = can(workspace, 'redirects:write');

  return (
    <>
      <ScreenHeader
        title="Redirects"
        action={
          writable && (
            <button type="button" className="button-primary" onClick={() => setAction({ kind: 'create' })}>
              Create redirect
            </button>
          )
        }
      />
      <p className="lead">Old paths and where they now lead. Your site asks Quire where to send a visitor.</p>
      <SearchForm label="Search redirects" q={q} onSearch={(text) => updateSearch({ q: text, page: '' })} />
      <Done message={done} />
      <LibraryTable
        title="Redirects"
        plural="redirects"
        list={list}
        q={q}
        columns={COLUMNS}
        onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
        actions={
          writable
            ? (redirect) => (
                <RowActions
                  name={`redirect from ${redirect.fromPath}`}
                  onEdit={() => setAction({ kind: 'edit', redirect })}
                  onDelete={() => setAction({ kind: 'delete', redirect })}
                />
              )
            : undefined
        }
      />
      {(action?.kind === 'create' || action?.kind === 'edit') && (
        <RedirectForm
          workspace={workspace}
          redirect={action.kind === 'edit' ? action.redirect : null}
          onClose={() => setAction(null)}
          onSaved={(r) => finish(`Redirect saved: ${r.fromPath} → ${r.toPath}.`)}
        />
      )}
      {action?.kind === 'delete' && (
        <DeleteDialog
          title={`Delete the redirect from ${action.redirect.fromPath}?`}
          confirmLabel="Delete redirect"
          workspace={workspace}
          path={`/redirects/${action.redirect.id}`}
          onClose={() => setAction(null)}
          onDeleted={() => finish(`Redirect from ${action.redirect.fromPath} deleted.`)}
        >
          <p>
            Visitors to {action.redirect.fromPath} will no longer be sent to {action.redirect.toPath}; unless the page
            exists again, they will find nothing there.
          </p>
        </DeleteDialog>
      )}
    </>
  );
}
