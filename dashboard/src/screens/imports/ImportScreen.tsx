import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { describeError } from '../../api';
import { Link } from '../../router';
import type { WorkspaceSummary } from '../../types';
import { FORMAT_GUIDES, guideOf } from './formats';
import { importErrorWords, requestImport, type ImportPhase } from './import-request';
import type { ImportFormat, ImportReport } from './import-types';
import { ImportProgress } from './ImportProgress';
import { ImportReportView } from './ImportReportView';
import './imports.css';

/** One run against the server: the dry run ("Check") or the import itself. */
type Run =
  | { kind: 'running'; dryRun: boolean; phase: ImportPhase | null }
  | { kind: 'done'; dryRun: boolean; report: ImportReport }
  | { kind: 'failed'; dryRun: boolean; message: string };

/**
 * The owner brings a site in from Ghost, WordPress or a Markdown folder: "Check" uploads the file for a dry run
 * and shows what would happen; "Import" is offered once that check succeeded for this very file and format.
 */
export function ImportScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const queryClient = useQueryClient();
  const fileId = useId();
  const fileHintId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [format, setFormat] = useState<ImportFormat | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const outcome = useRef<HTMLDivElement>(null);
  const ended = run !== null && run.kind !== 'running';

  // The outcome appears below the form: bring it into view, and to a screen reader's attention, as a page would.
  useEffect(() => {
    if (ended) outcome.current?.focus();
  }, [ended]);

  if (!workspace.isOwner) {
    return (
      <>
        <h1>Import</h1>
        <p className="notice">Only the workspace owner can import content.</p>
      </>
    );
  }

  const choose = (next: ImportFormat) => {
    setFormat(next);
    setFile(null);
    setRun(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const start = async (dryRun: boolean) => {
    if (!format || !file) return;
    setRun({ kind: 'running', dryRun, phase: null });
    try {
      const report = await requestImport({
        workspaceId: workspace.id,
        format,
        file,
        dryRun,
        onPhase: (phase) => setRun({ kind: 'running', dryRun, phase }),
      });
      setRun({ kind: 'done', dryRun, report });
    } catch (error) {
      setRun({ kind: 'failed', dryRun, message: importErrorWords(error, describeError) });
    } finally {
      // Whatever an import wrote (all of it, or the items before a failure) must show in every list.
      if (!dryRun) void queryClient.invalidateQueries({ queryKey: ['w', workspace.id] });
    }
  };

  const running = run?.kind === 'running';
  const checked = run?.kind === 'done' && run.dryRun;
  const imported = run?.kind === 'done' && !run.dryRun;
  const guide = format ? guideOf(format) : null;

  return (
    <>
      <h1>Import</h1>
      <p className="lead">
        Bring posts, pages, authors, categories, tags and images in from another system. Check the file first: the check
        writes nothing and shows what the import would do. Importing the same file again later updates what changed and
        leaves the rest as it is.
      </p>

      <fieldset className="panel import-formats" disabled={running}>
        <legend>1. Where does the content come from?</legend>
        {FORMAT_GUIDES.map((option) => (
          <label key={option.format} className="import-format">
            <input
              type="radio"
              name="import-format"
              value={option.format}
              checked={format === option.format}
              aria-labelledby={`${fileId}-${option.format}-name`}
              aria-describedby={`${fileId}-${option.format}-what`}
              onChange={() => choose(option.format)}
            />
            <span className="import-format-text">
              <span id={`${fileId}-${option.format}-name`} className="import-format-name">
                {option.name}
              </span>
              <span id={`${fileId}-${option.format}-what`} className="hint">
                {option.what}
              </span>
            </span>
          </label>
        ))}
      </fieldset>

      {guide && (
        <section className="panel import-file" aria-labelledby={`${fileId}-title`}>
          <h2 id={`${fileId}-title`}>2. The {guide.name} file</h2>
          <ul className="import-how">
            {guide.how.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ul>
          <div className="field">
            <label htmlFor={fileId}>File to import</label>
            <input
              id={fileId}
              ref={fileInput}
              type="file"
              accept={guide.accept}
              aria-describedby={fileHintId}
              disabled={running}
              onChange={(event) => {
                setFile(event.currentTarget.files?.[0] ?? null);
                setRun(null);
              }}
            />
            <p id={fileHintId} className="hint">
              A{' '}
              {guide.accept
                .split(',')
                .filter((type) => type.startsWith('.'))
                .join(' or ')}{' '}
              file.
            </p>
          </div>
          <div className="actions actions-start">
            <button type="button" disabled={!file || running} onClick={() => void start(true)}>
              {running && run.dryRun ? 'Checking…' : 'Check'}
            </button>
            <button
              type="button"
              className="button-primary"
              disabled={!checked || running}
              aria-describedby={`${fileId}-import-hint`}
              onClick={() => void start(false)}
            >
              {running && !run.dryRun ? 'Importing…' : 'Import'}
            </button>
          </div>
          <p id={`${fileId}-import-hint`} className="hint">
            {imported
              ? 'Imported. Choose another file to import more.'
              : checked
                ? 'The check succeeded: Import writes what it shows.'
                : 'Import is possible once a check of this file has succeeded.'}
          </p>
        </section>
      )}

      {run?.kind === 'running' && <ImportProgress dryRun={run.dryRun} phase={run.phase} />}
      <div ref={outcome} tabIndex={-1} className="import-outcome">
        {run?.kind === 'failed' && (
          <div className="notice notice-error import-error" role="alert">
            <p>
              {run.dryRun ? 'The check failed: ' : 'The import stopped: '}
              {run.message}
            </p>
          </div>
        )}
        {run?.kind === 'done' && (
          <>
            <p role="status" className="success-text import-done">
              {run.dryRun ? 'Check finished. Nothing was written.' : `Import finished: ${postsWritten(run.report)}.`}
            </p>
            {!run.dryRun && (
              <p>
                <Link to={`/w/${workspace.id}/posts`}>See the posts</Link>
              </p>
            )}
            <ImportReportView report={run.report} />
          </>
        )}
      </div>
    </>
  );
}

/** "3 posts created, 1 updated": the sentence that ends an import. */
function postsWritten(report: ImportReport): string {
  const posts = report.counts.post ?? {};
  const created = posts.created ?? 0;
  const updated = posts.updated ?? 0;
  const unchanged = posts.unchanged ?? 0;
  const parts = [`${created} ${created === 1 ? 'post' : 'posts'} created`];
  if (updated > 0) parts.push(`${updated} updated`);
  if (unchanged > 0) parts.push(`${unchanged} unchanged`);
  return parts.join(', ');
}
