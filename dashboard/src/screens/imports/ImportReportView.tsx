import type { ImportReport, ItemReport } from './import-types';

type Action = ItemReport['action'];
type Note = ItemReport['dropped'][number];

const TYPES: Array<[string, string]> = [
  ['post', 'Posts'],
  ['page', 'Pages'],
  ['author', 'Authors'],
  ['category', 'Categories'],
  ['tag', 'Tags'],
  ['media', 'Images and files'],
  ['redirect', 'Redirects'],
  ['item', 'Unreadable items'],
];

/** Each action as the import says it, and as the dry run says it would. */
const ACTIONS: Array<[Action, string, string]> = [
  ['created', 'Created', 'To create'],
  ['updated', 'Updated', 'To update'],
  ['unchanged', 'Unchanged', 'Unchanged'],
  ['adopted', 'Existing, used', 'Existing, to use'],
  ['skipped', 'Skipped', 'To skip'],
  ['failed', 'Failed', 'Would fail'],
];

const TYPE_WORDS: Record<string, string> = {
  post: 'Post',
  page: 'Page',
  author: 'Author',
  category: 'Category',
  tag: 'Tag',
  media: 'Image',
  redirect: 'Redirect',
  item: 'Item',
};

/** The notes shown in full; a longer report says how many more there are. */
const SHOWN = 200;

const NOTE_WORDS: Record<Note['kind'], string> = {
  unsupported: 'not kept',
  approximated: 'kept in part',
  'unresolved-image': 'image not found',
  'link-removed': 'unsafe link made text',
  truncated: 'cut to fit',
  split: 'split in several blocks',
};

function NoteList({ title, notes }: { title: string; notes: Note[] }) {
  if (notes.length === 0) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul className="import-notes">
        {notes.map((note, index) => (
          <li key={index}>
            <strong>{note.element}</strong>: {NOTE_WORDS[note.kind] ?? note.kind}
            {note.excerpt && <span className="import-excerpt">{note.excerpt}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function ItemNotes({ item, dryRun }: { item: ItemReport; dryRun: boolean }) {
  const action = ACTIONS.find(([name]) => name === item.action);
  const parts = [
    item.approximated.length > 0 && `${item.approximated.length} kept in part`,
    item.dropped.length > 0 && `${item.dropped.length} not kept`,
  ].filter(Boolean);
  return (
    <details className="import-item">
      <summary>
        <span className="import-item-title">
          {TYPE_WORDS[item.type] ?? item.type}: {item.title || item.sourceId}
        </span>{' '}
        <span
          className={`badge import-badge badge-${item.action === 'failed' ? 'bad' : parts.length > 0 ? 'warn' : 'neutral'}`}
        >
          {action ? action[dryRun ? 2 : 1] : item.action}
        </span>
        {parts.length > 0 && <span className="hint"> {parts.join(', ')}</span>}
      </summary>
      {item.message && <p className="field-error">{item.message}</p>}
      <NoteList title="Kept in part" notes={item.approximated} />
      <NoteList title="Not kept" notes={item.dropped} />
    </details>
  );
}

const took = (seconds: number) => (seconds < 1 ? 'in under a second' : `in ${seconds.toFixed(1)} s`);

/** A dry run's or an import's report: counts by type and action, what the reader said, then each item's notes. */
export function ImportReportView({ report }: { report: ImportReport }) {
  const { dryRun } = report;
  const rows = TYPES.filter(([type]) => report.counts[type as keyof ImportReport['counts']]);
  const columns = ACTIONS.filter(([action]) =>
    rows.some(([type]) => report.counts[type as keyof ImportReport['counts']]?.[action]),
  );
  const noteworthy = report.items.filter(
    (item) => item.action === 'failed' || item.approximated.length > 0 || item.dropped.length > 0,
  );
  return (
    <section className="panel import-report" aria-labelledby="import-report-title">
      <h2 id="import-report-title">{dryRun ? 'What the import would do' : 'What was imported'}</h2>
      <p className="lead">
        {dryRun
          ? `Checked ${report.site} (${report.format}) ${took(report.seconds)}. Nothing was written yet.`
          : `Imported ${report.site} (${report.format}) ${took(report.seconds)}.`}
      </p>
      {rows.length === 0 ? (
        <p className="empty">The file holds nothing to import.</p>
      ) : (
        <table className="table import-counts">
          <caption className="visually-hidden">Counts by type</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              {columns.map(([action, done, would]) => (
                <th scope="col" key={action}>
                  {dryRun ? would : done}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([type, label]) => {
              const counts = report.counts[type as keyof ImportReport['counts']] ?? {};
              return (
                <tr key={type}>
                  <th scope="row">{label}</th>
                  {columns.map(([action, done, would]) => (
                    <td key={action} data-label={dryRun ? would : done}>
                      {(counts[action] ?? 0).toLocaleString('en-US')}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {report.sourceNotes.length > 0 && (
        <>
          <h3>About the file</h3>
          <ul className="import-source-notes">
            {report.sourceNotes.map((note, index) => (
              <li key={index}>{note}</li>
            ))}
          </ul>
        </>
      )}
      <h3>Items with notes</h3>
      {noteworthy.length === 0 ? (
        <p>Every item {dryRun ? 'can go in' : 'went in'} whole: nothing was approximated or left out.</p>
      ) : (
        <>
          <p className="hint">
            {noteworthy.length.toLocaleString('en-US')} {noteworthy.length === 1 ? 'item' : 'items'}{' '}
            {dryRun ? 'would lose' : 'lost'} something or failed. Open one to see what.
          </p>
          <div className="import-items">
            {noteworthy.slice(0, SHOWN).map((item) => (
              <ItemNotes key={`${item.type} ${item.sourceId}`} item={item} dryRun={dryRun} />
            ))}
          </div>
          {noteworthy.length > SHOWN && (
            <p className="hint">
              … and {(noteworthy.length - SHOWN).toLocaleString('en-US')} more. The command line’s{' '}
              <code>quire import … --report FILE</code> lists every one.
            </p>
          )}
        </>
      )}
    </section>
  );
}
