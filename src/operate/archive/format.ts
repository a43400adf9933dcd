import { AppError } from '../../errors.js';
import { WORKSPACE_ARCHIVE_MINOR } from '../workspace/tables.js';

/**
 * The archive format shared by `quire export` (one workspace) and `quire backup` (a whole installation):
 * a gzip-compressed tar whose first entry is a JSON header and whose last is a JSON trailer listing every
 * entry before it with its size and sha256. docs/operate.md describes it for readers outside Quire.
 */

export const HEADER_ENTRY = 'quire-archive.json';
export const TRAILER_ENTRY = 'quire-archive-end.json';

/** What an archive holds; a command refuses the other kind by name. */
export type ArchiveKind = 'quire-workspace' | 'quire-backup';

/**
 * The format version this Quire writes, per kind. A newer major version changed what an older reader would
 * misread, so it is refused; a newer minor version only added tables or columns, which an older reader skips.
 */
export const FORMAT_VERSION: Record<ArchiveKind, { major: number; minor: number }> = {
  // 1.1: post_revisions and page_revisions. 1.2: media placeholder and dominant_color. 1.3: media focal_point.
  // Later: the newest version a post's or page's field was first archived in (workspace/tables.ts).
  'quire-workspace': { major: 1, minor: WORKSPACE_ARCHIVE_MINOR },
  'quire-backup': { major: 1, minor: 0 },
};

export interface ArchiveHeader {
  format: ArchiveKind;
  /** `major.minor` */
  version: string;
  createdAt: string;
  /** The Quire release that wrote it (package.json's version). */
  writtenBy: string;
  [field: string]: unknown;
}

export interface TrailerEntry {
  name: string;
  size: number;
  sha256: string;
}

export interface ArchiveTrailer {
  entries: TrailerEntry[];
  /** Rows written per table. */
  rows: Record<string, number>;
  files: number;
}

/** Why an archive cannot be read, in one line (the CLI prints it as it is). */
export class ArchiveError extends AppError {
  constructor(message: string) {
    super('BAD_REQUEST', message);
    this.name = 'ArchiveError';
  }
}

/** Row chunks of one table: `tables/<table>/000001.ndjson`, in order. */
export function rowsEntryName(table: string, index: number): string {
  return `tables/${table}/${String(index).padStart(6, '0')}.ndjson`;
}

export function tableOfRowsEntry(name: string): string | null {
  const match = /^tables\/([a-z0-9_]+)\/\d{6}\.ndjson$/.exec(name);
  return match ? match[1]! : null;
}

export function formatVersion(kind: ArchiveKind): string {
  const { major, minor } = FORMAT_VERSION[kind];
  return `${major}.${minor}`;
}

/**
 * Checks the header against what this Quire reads; answers whether the archive is of a newer minor
 * version (whose unknown tables and columns are skipped).
 */
export function checkHeader(header: unknown, kind: ArchiveKind, file: string): { newerMinor: boolean } {
  const fields = (header ?? {}) as Partial<ArchiveHeader>;
  const other: ArchiveKind = kind === 'quire-workspace' ? 'quire-backup' : 'quire-workspace';
  if (fields.format === other)
    throw new ArchiveError(
      kind === 'quire-workspace'
        ? `${file} is a Quire backup, not a workspace export: restore it with "quire restore"`
        : `${file} is a workspace export, not a Quire backup: load it with "quire import"`,
    );
  if (fields.format !== kind)
    throw new ArchiveError(`${file} is not a Quire archive (its header names no known format)`);
  const match = /^(\d+)\.(\d+)$/.exec(String(fields.version ?? ''));
  if (!match) throw new ArchiveError(`${file} has no readable format version`);
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const supported = FORMAT_VERSION[kind];
  if (major > supported.major)
    throw new ArchiveError(
      `${file} is format ${major}.${minor}, written by a newer Quire (${fields.writtenBy ?? 'unknown'}); this Quire reads ${supported.major}.x: upgrade it first`,
    );
  if (major < supported.major)
    throw new ArchiveError(`${file} is format ${major}.${minor}, older than this Quire reads (${supported.major}.x)`);
  return { newerMinor: minor > supported.minor };
}
