import type { DatabaseHandle } from '../../db/database.js';
import { invalid } from '../../errors.js';
import { auditRepository, type AuditFilter, type AuditPosition, type AuditRow } from '../../audit/audit.repository.js';
import { categoryOf } from '../../audit/audit-log.js';
import { requirePermission, type Actor } from '../../security/actor.js';
import { isUuid } from '../../shared/slug.js';
import { toIso } from '../../shared/time.js';
import type { AuditEntry, AuditExportQuery, AuditListQuery, AuditPage } from './audit.schemas.js';

/** Rows read per query while an export streams: bounded memory, whatever the log's length. */
const EXPORT_PAGE = 500;

function present(row: AuditRow): AuditEntry {
  const kind =
    row.actor_key_id !== null
      ? 'key'
      : row.address === null
        ? 'command_line'
        : row.actor_user_id === null
          ? 'anonymous'
          : 'user';
  return {
    id: row.id,
    at: toIso(row.at),
    action: row.action as AuditEntry['action'],
    category: row.category as AuditEntry['category'],
    actor: {
      kind,
      userId: row.actor_user_id,
      email: row.actor_email,
      apiKeyId: row.actor_key_id,
      apiKeyName: row.actor_key_name,
    },
    address: row.address,
    target:
      row.target_type === null ? null : { type: row.target_type, id: row.target_id ?? '', label: row.target_label },
    details: JSON.parse(row.details) as AuditEntry['details'],
  };
}

const cursorOf = (row: AuditRow): string => Buffer.from(`${toIso(row.at)}|${row.id}`).toString('base64url');

function positionOf(cursor: string): AuditPosition {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (at === undefined || id === undefined || Number.isNaN(Date.parse(at)) || !isUuid(id))
    throw invalid([{ in: 'query', path: '/before', message: 'before must be the next of an earlier page' }]);
  return { at, id };
}

function filterOf(query: AuditExportQuery): AuditFilter {
  const since = query.since === undefined ? undefined : toIso(query.since);
  const until = query.until === undefined ? undefined : toIso(query.until);
  if (since !== undefined && until !== undefined && until <= since)
    throw invalid([{ in: 'query', path: '/until', message: 'until must be later than since' }]);
  if (query.action !== undefined && query.category !== undefined && categoryOf(query.action) !== query.category)
    throw invalid([{ in: 'query', path: '/action', message: `action ${query.action} is not of ${query.category}` }]);
  return { category: query.category, action: query.action, actorUserId: query.actor, since, until };
}

/** Reading a workspace's audit log (docs/team.md, "Audit log"); what writes it is each change's own service. */
export function createAuditService({ db }: DatabaseHandle) {
  return {
    async list(actor: Actor, query: AuditListQuery): Promise<AuditPage> {
      requirePermission(actor, 'audit:read');
      const filter = filterOf(query);
      const before = query.before === undefined ? undefined : positionOf(query.before);
      const limit = query.limit ?? 50;
      // One more than the page, to know whether there is a next one without counting.
      const rows = await auditRepository.list(db, actor.workspaceId, filter, before, limit + 1);
      const page = rows.slice(0, limit);
      return { data: page.map(present), next: rows.length > limit ? cursorOf(page[page.length - 1]!) : null };
    },

    /** Every matching entry, newest first, one JSON object a line: read a page at a time as the client reads. */
    async *exportLines(actor: Actor, query: AuditExportQuery): AsyncGenerator<string> {
      requirePermission(actor, 'audit:read');
      const filter = filterOf(query);
      let before: AuditPosition | undefined;
      for (;;) {
        const rows = await auditRepository.list(db, actor.workspaceId, filter, before, EXPORT_PAGE);
        if (rows.length > 0) yield rows.map((row) => `${JSON.stringify(present(row))}\n`).join('');
        if (rows.length < EXPORT_PAGE) return;
        const last = rows[rows.length - 1]!;
        before = { at: toIso(last.at), id: last.id };
      }
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
