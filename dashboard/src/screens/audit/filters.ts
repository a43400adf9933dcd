import { API_BASE, withQuery, ws } from '../../api';
import { isCategory } from './describe';
import type { AuditQuery } from './types';

/** The filters live in the address, so a filtered log can be reloaded, shared and gone back to. */
export const FILTER_NAMES = ['category', 'actor', 'from', 'to'] as const;
export type Filters = Record<(typeof FILTER_NAMES)[number], string>;

export type AuditFilter = Omit<AuditQuery, 'before' | 'limit'>;

/** The time zone the date filters' days are in: this browser's, as the When column is. */
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The instant a `yyyy-mm-dd` day starts in this browser's time zone, `days` later; undefined for no date. */
function dayStart(date: string, days = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days).toISOString();
}

/** Why the dates cannot be asked for, or null: the server would refuse an end before the start. */
export function rangeProblem(filters: Filters): string | null {
  return filters.from && filters.to && filters.to < filters.from ? 'Choose a day on or after the “From” day.' : null;
}

export function isFiltered(filters: Filters): boolean {
  return Object.values(filters).some(Boolean);
}

/** The API's filters: `since` the start of the From day, `until` the start of the day after To, so To is included. */
export function auditFilter(filters: Filters): AuditFilter {
  return {
    category: isCategory(filters.category) ? filters.category : undefined,
    actor: filters.actor || undefined,
    since: dayStart(filters.from),
    until: dayStart(filters.to, 1),
  };
}

/** A plain link downloads the export: the session cookie authenticates a GET, and the server names the file. */
export function exportHref(workspaceId: string, filter: AuditFilter): string {
  return withQuery(`${API_BASE}${ws(workspaceId, '/audit/export')}`, filter);
}
