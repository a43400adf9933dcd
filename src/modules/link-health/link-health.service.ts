import crypto from 'node:crypto';
import type { DatabaseHandle } from '../../db/database.js';
import { invalid } from '../../errors.js';
import { pageOf, type PageRequest, type Paginated } from '../../shared/paging.js';
import { nowIso } from '../../shared/time.js';
import { checkReferrer, normalizePath, type PathResult } from '../../shared/url-path.js';
import type { Actor } from '../../security/actor.js';
import { createReportBatches } from './link-health.batches.js';
import { presentLinkHealth } from './link-health.presenter.js';
import { linkHealthRepository as repo } from './link-health.repository.js';
import type {
  LinkHealth,
  LinkHealthListQuery,
  LinkHealthReportBody,
  LinkHealthSortKey,
} from './link-health.schemas.js';

function normalised(result: PathResult, field: string): string {
  if (result.ok) return result.value;
  throw invalid([{ in: 'body', path: `/${field}`, message: `${field} ${result.message}` }]);
}

export function createLinkHealthService(database: DatabaseHandle) {
  const { db, dialect } = database;
  const batches = createReportBatches(database);
  return {
    async list(
      actor: Actor,
      query: LinkHealthListQuery,
      page: PageRequest<LinkHealthSortKey>,
    ): Promise<Paginated<LinkHealth>> {
      const { rows, total } = await repo.list(db, dialect, actor.workspaceId, { q: query.q }, page);
      return pageOf(page, rows.map(presentLinkHealth), total);
    },

    /**
     * One report of a broken link. The query string and fragment of the path are dropped: tracking
     * parameters would split one broken link into many rows, and tokens in them do not belong in
     * telemetry. Reports are telemetry, not content, so they leave the content version alone (a
     * bump per 404 would invalidate every cached response of the workspace).
     */
    async report(actor: Actor, body: LinkHealthReportBody): Promise<LinkHealth> {
      const path = normalised(normalizePath(body.path, 'strip'), 'path');
      const referrer = body.referrer == null ? null : normalised(checkReferrer(body.referrer), 'referrer');
      const row = await batches.record(actor.workspaceId, {
        id: crypto.randomUUID(),
        path,
        referrer,
        status_code: body.statusCode ?? 404,
        seen_at: nowIso(),
      });
      return presentLinkHealth(row);
    },
  };
}

export type LinkHealthService = ReturnType<typeof createLinkHealthService>;
