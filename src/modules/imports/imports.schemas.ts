import { Type, type Static } from 'typebox';
import { Nullable } from '../../shared/schemas.js';
import type { ImportReport } from './import-report.js';
import type { ImportFormat } from './import-source.js';

/** The formats the Import screen offers, in the order it shows them. */
export const IMPORT_FORMATS = ['ghost', 'wordpress', 'markdown'] as const satisfies readonly ImportFormat[];

const Counts = Type.Record(Type.String(), Type.Integer({ minimum: 0 }));

const Note = Type.Object({
  kind: Type.String({ description: 'unsupported, approximated, unresolved-image, link-removed, truncated or split' }),
  element: Type.String(),
  excerpt: Type.String(),
});

const ItemReport = Type.Object({
  type: Type.String({ description: 'author, category, tag, post, page, redirect, media, or item (unreadable)' }),
  sourceId: Type.String(),
  title: Type.String(),
  action: Type.Union([
    Type.Literal('created'),
    Type.Literal('updated'),
    Type.Literal('unchanged'),
    Type.Literal('adopted'),
    Type.Literal('skipped'),
    Type.Literal('failed'),
  ]),
  quireId: Nullable(Type.String()),
  converted: Type.Optional(Counts),
  approximated: Type.Array(Note),
  dropped: Type.Array(Note),
  message: Type.Optional(Type.String()),
});

/** import-report.ts's ImportReport as the stream's last line carries it (docs/imports.md). */
export const ImportReportSchema = Type.Object({
  format: Type.Union([Type.Literal('ghost'), Type.Literal('wordpress'), Type.Literal('markdown')]),
  site: Type.String(),
  workspaceId: Type.String(),
  dryRun: Type.Boolean(),
  seconds: Type.Number(),
  counts: Type.Record(Type.String(), Counts),
  items: Type.Array(ItemReport),
  sourceNotes: Type.Array(Type.String()),
});

// The runner's report must fit what the document says is sent: a field it gains breaks the build here.
type Fits<T extends Static<typeof ImportReportSchema>> = T;
export type DocumentedReport = Fits<ImportReport>;

export const ImportProgressLine = Type.Object({
  type: Type.Literal('progress'),
  done: Type.Integer({ minimum: 0, description: 'Posts and pages read so far.' }),
  total: Nullable(Type.Integer({ minimum: 0, description: 'Posts and pages in the file; null when unknown.' })),
});
export const ImportReportLine = Type.Object({ type: Type.Literal('report'), report: ImportReportSchema });
export const ImportErrorLine = Type.Object({ type: Type.Literal('error'), message: Type.String() });

/** One line of the answer's NDJSON: progress lines, then exactly one report or error. */
export const ImportLine = Type.Union([ImportProgressLine, ImportReportLine, ImportErrorLine]);
export type ImportLine = Static<typeof ImportLine>;
