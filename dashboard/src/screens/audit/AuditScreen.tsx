import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { call, client } from '../../api';
import { Empty, ErrorMessage, Loading } from '../../components/Status';
import { keys, useApi } from '../../queries';
import { useSearchState } from '../../router';
import type { WorkspaceSummary } from '../../types';
import { AuditFilters } from './AuditFilters';
import { AuditTable } from './AuditTable';
import { auditFilter, exportHref, FILTER_NAMES, isFiltered, rangeProblem } from './filters';
import './audit.css';

/** Entries a page: "Load older" adds as many again. */
export const PAGE_SIZE = 50;

function shown(count: number, more: boolean, filtered: boolean): string {
  const entries = filtered ? 'matching entries' : 'entries';
  if (more) return `Showing the newest ${count} ${entries}.`;
  return count === 1 ? `Showing the one ${filtered ? 'matching entry' : 'entry'}.` : `Showing all ${count} ${entries}.`;
}

/** The workspace's audit log: who did what and when, filtered, a page at a time, and its export. */
export function AuditScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const [filters, updateFilters] = useSearchState(FILTER_NAMES);
  const filter = auditFilter(filters);
  const problem = rangeProblem(filters);
  const filtered = isFiltered(filters);
  const members = useApi(keys.resource(workspace.id, 'members'), () =>
    call(client.GET('/workspaces/{workspaceId}/members', { params: { path: { workspaceId: workspace.id } } })),
  );
  // A new filter is a new query key, so it starts again from the newest page.
  const log = useInfiniteQuery({
    queryKey: keys.list(workspace.id, 'audit', filter),
    queryFn: ({ pageParam }) =>
      call(
        client.GET('/workspaces/{workspaceId}/audit', {
          params: { path: { workspaceId: workspace.id }, query: { ...filter, before: pageParam, limit: PAGE_SIZE } },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: keepPreviousData,
    enabled: problem === null,
  });
  const summary = useRef<HTMLParagraphElement>(null);

  // Dates the server would refuse ask for nothing: the last answer, kept as a placeholder, would not fit them.
  const entries = problem === null ? (log.data?.pages.flatMap((page) => page.data) ?? null) : null;
  const current = !log.isPlaceholderData;
  const more = current && log.hasNextPage;
  const loadOlder = async () => {
    const next = await log.fetchNextPage();
    // The button is gone with the last page: the focus goes to the line that says so, not to the page's start.
    if (!next.isError && !next.hasNextPage) summary.current?.focus();
  };
  const failed = log.isError && !log.isFetching ? log.error : null;

  return (
    <>
      <div className="page-header">
        <h1>Audit log</h1>
        <a className="link-button" href={exportHref(workspace.id, filter)} download>
          Export JSON lines
        </a>
      </div>
      <p className="lead">
        Who changed this workspace’s team, keys, webhooks and settings, and who signed in to it, newest first. Older
        entries are pruned after the period the server is set to keep them.
      </p>
      <AuditFilters filters={filters} members={members.data} onChange={updateFilters} />

      {failed !== null && !log.isFetchNextPageError && (
        <ErrorMessage error={failed} onRetry={() => void log.refetch()} />
      )}
      {problem === null && log.isPending && <Loading label="Loading the audit log…" />}
      {entries && entries.length === 0 && (
        <Empty>{filtered ? 'Nothing matches these filters.' : 'Nothing recorded yet.'}</Empty>
      )}
      {entries && entries.length > 0 && (
        <>
          <AuditTable entries={entries} busy={log.isFetching} />
          <div className="audit-more">
            <p ref={summary} tabIndex={-1} role="status" className="hint">
              {current ? shown(entries.length, more, filtered) : ''}
            </p>
            {failed !== null && log.isFetchNextPageError && (
              <ErrorMessage error={failed} onRetry={() => void loadOlder()} />
            )}
            {more && (
              <button type="button" disabled={log.isFetchingNextPage} onClick={() => void loadOlder()}>
                {log.isFetchingNextPage ? 'Loading older entries…' : 'Load older'}
              </button>
            )}
          </div>
        </>
      )}
    </>
  );
}
