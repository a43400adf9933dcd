import { columnMap, stored, type ColumnSpec } from '../../db/columns.js';
import { parseJson, toJson } from '../../shared/json.js';
import type { FocalPoint, MediaUpdateBody } from './media.schemas.js';

/** Thousandths: finer than a crop window can move on any image Quire resizes, and what a crop URL carries. */
const rounded = (value: number) => Math.round(value * 1000) / 1000;

/** The focal point as JSON, each fraction rounded to 3 decimals, so a read answers what a crop URL names. */
const focalPoint: ColumnSpec = {
  kind: 'stored',
  column: 'focal_point',
  write: (value) => {
    const point = value as FocalPoint | null;
    return toJson(point && { x: rounded(point.x), y: rounded(point.y) });
  },
  read: (value) => parseJson(value as string | null),
  initial: null,
};

/** Where each writable field of a media item is kept (db/columns.ts); the bytes and what they say never change. */
export const mediaColumns = columnMap<MediaUpdateBody>({
  alt: stored('alt'),
  caption: stored('caption'),
  focalPoint,
});
