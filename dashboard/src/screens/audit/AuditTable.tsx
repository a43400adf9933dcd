import { Email } from '../../components/Email';
import { describe } from './describe';
import type { AuditEntry } from './types';

// Seconds too: entries a moment apart are often in the same minute, and their order is the story.
const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function Who({ actor }: { actor: AuditEntry['actor'] }) {
  switch (actor.kind) {
    case 'key':
      return (
        <span>
          API key “{actor.apiKeyName ?? 'unnamed'}”
          {actor.email && (
            <>
              {' '}
              <span className="by">
                made by <Email address={actor.email} />
              </span>
            </>
          )}
        </span>
      );
    case 'command_line':
      return (
        <span>
          Command line
          {actor.email && (
            <>
              {' '}
              <span className="by">
                as <Email address={actor.email} />
              </span>
            </>
          )}
        </span>
      );
    case 'anonymous':
      return <span>Someone not signed in</span>;
    default:
      return <span>{actor.email ? <Email address={actor.email} /> : 'A former member'}</span>;
  }
}

/** The log's rows, newest first; each row's sentence is its header, what a screen reader names it by. */
export function AuditTable({ entries, busy }: { entries: AuditEntry[]; busy: boolean }) {
  return (
    <table className="table audit-table" aria-busy={busy}>
      <caption className="visually-hidden">Audit log, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
          <th scope="col">Address</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => {
          const { sentence, more } = describe(entry);
          return (
            <tr key={entry.id} data-action={entry.action}>
              <td data-label="When">
                <time dateTime={entry.at} title={entry.at}>
                  {WHEN.format(new Date(entry.at))}
                </time>
              </td>
              <td data-label="Who" className="wrap">
                <Who actor={entry.actor} />
              </td>
              <th scope="row" data-label="What">
                <span className="audit-sentence">{sentence}</span>
                {more.map((line) => (
                  <span key={line} className="by">
                    {line}
                  </span>
                ))}
              </th>
              <td data-label="Address" className="wrap">
                {entry.address ?? '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
