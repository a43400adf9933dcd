import { useState } from 'react';
import { can } from '../session';
import type { LinkHealth, WorkspaceSummary } from '../types';
import { Done, LibraryTable, ScreenHeader, SearchForm, time, useLibraryList, type Column } from './list';
import { RedirectForm } from './RedirectForm';

const COLUMNS: Column<LinkHealth>[] = [
  { label: 'Path', cell: (l) => <span className="mono">{l.path}</span> },
  { label: 'Status', cell: (l) => String(l.statusCode) },
  { label: 'Hits', cell: (l) => l.hitCount.toLocaleString() },
  { label: 'Referrer', cell: (l) => (l.referrer ? <span className="mono">{l.referrer}</span> : '—') },
  { label: 'Last seen', cell: (l) => time(l.lastSeenAt) },
];

const ORDER = { orderBy: 'hitCount', order: 'desc' };

/** Broken paths, most hit first; a path that was not found can be redirected from its row. */
export function LinkHealthScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const { list, q, updateSearch } = useLibraryList<LinkHealth>(workspace, 'link-health', ORDER);
  const [fixing, setFixing] = useState<LinkHealth | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const redirectable = can(workspace, 'redirects:write');

  return (
    <>
      <ScreenHeader title="Link health" />
      <p className="lead">Broken paths your site reported, most frequent first.</p>
      <SearchForm label="Search reports" q={q} onSearch={(text) => updateSearch({ q: text, page: '' })} />
      <Done message={done} />
      <LibraryTable
        title="Link health"
        plural="reports"
        list={list}
        q={q}
        columns={COLUMNS}
        onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
        actions={
          redirectable
            ? (report) =>
                report.statusCode === 404 && (
                  <button type="button" onClick={() => setFixing(report)}>
                    Create redirect<span className="visually-hidden"> from {report.path}</span>
                  </button>
                )
            : undefined
        }
      />
      {fixing && (
        <RedirectForm
          workspace={workspace}
          redirect={null}
          fromPath={fixing.path}
          onClose={() => setFixing(null)}
          onSaved={(r) => {
            setFixing(null);
            setDone(`Redirect created: visitors to ${r.fromPath} now go to ${r.toPath}.`);
          }}
        />
      )}
    </>
  );
}
