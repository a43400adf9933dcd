/**
 * The size segment of a derivative's URL (`/media/<workspace>/<media>/<size>/<stem>.<format>`): one strict
 * grammar, read by the public file route; docs/media.md shows a site how to write one.
 * Every size has one spelling (its parameters in a fixed order, numbers without leading zeros), so a CDN does not
 * keep one size under several URLs.
 *
 *   size    = width [ "-" height "-" fit [ "-" x "-" y ] ] [ "-" quality ]
 *   width   = "w" pixels        a multiple of 16 from 16 to 2560 (the ladder's widths are among them)
 *   height  = "h" pixels        16 to 2560, any whole number: a crop's aspect ratio is the layout's
 *   fit     = "cover"           scaled to fill width × height, the rest cropped around the focal point
 *   x, y    = "x" n, "y" n      the focal point in thousandths of the width and height (0 to 1000), centre when
 *                               left out; a URL carries it so that a moved focal point gives new URLs
 *   quality = "q" n             30 to 90; left out, each format's own (media.images.ts DEFAULT_QUALITY, the ladder's)
 *
 * No imports: the dashboard draws its crop previews with coverCrop.
 */

export const SIZE_STEP = 16;
export const MAX_SIZE = 2560;
export const MIN_SIZE = 16;
export const QUALITY_RANGE = { min: 30, max: 90 } as const;
/** The focal point's coordinates in a URL are thousandths. */
export const FOCAL_SCALE = 1000;
export const FITS = ['cover'] as const;
export type Fit = (typeof FITS)[number];

/** A derivative's size as its URL names it. */
export interface ImageSize {
  width: number;
  height?: number;
  fit?: Fit;
  /** Thousandths of the image's width and height, 0 to 1000. */
  focal?: { x: number; y: number };
  quality?: number;
}

/** Where a problem is: a JSON Pointer into the route's `variant` path parameter, and why. */
export interface SizeIssue {
  in: 'params';
  path: string;
  message: string;
}

const ORDER = ['width', 'height', 'fit', 'x', 'y', 'quality'] as const;
type Param = (typeof ORDER)[number];
const LETTERS: Readonly<Record<string, Param>> = { w: 'width', h: 'height', x: 'x', y: 'y', q: 'quality' };
const SPELLING = 'w…-h…-cover-x…-y…-q…';

const issue = (name: string, message: string): SizeIssue => ({
  in: 'params',
  path: `/variant/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
  message,
});

/** Digits without a leading zero (or a lone 0), short enough to be a number: anything else is a typo. */
const NUMBER = /^(0|[1-9]\d{0,5})$/;

function range(name: Param, value: number, min: number, max: number, unit: string): SizeIssue | null {
  return value >= min && value <= max ? null : issue(name, `${name} must be from ${min} to ${max}${unit}`);
}

/**
 * The size a URL segment names, or every reason it names none. Checks the grammar and the bounds that do not
 * depend on the image; the image's own size (never upscaled) and format are checked against its row.
 */
export function parseSize(segment: string): { size: ImageSize; issues?: undefined } | { issues: SizeIssue[] } {
  const values = new Map<Param, string>();
  let last = -1;
  for (const token of segment.split('-')) {
    const [, letters = '', rest = ''] = /^([a-z]*)(.*)$/s.exec(token) ?? [];
    const known = LETTERS[letters];
    // A word alone is a fit; a name with a value is a parameter.
    const param: Param | undefined = known && rest !== '' ? known : letters !== '' && rest === '' ? 'fit' : undefined;
    if (!param) {
      const name = letters || token || '-';
      return {
        issues: [issue(name, `${name} is not a parameter of an image size; a size is spelled ${SPELLING}`)],
      };
    }
    const at = ORDER.indexOf(param);
    if (values.has(param)) return { issues: [issue(param, `${param} is given twice`)] };
    if (at < last)
      return {
        issues: [issue(param, `${param} comes too late: a size is spelled ${SPELLING}, in that order`)],
      };
    last = at;
    values.set(param, param === 'fit' ? letters : rest);
  }

  const issues: SizeIssue[] = [];
  const numbers: Partial<Record<Param, number>> = {};
  for (const [param, raw] of values) {
    if (param === 'fit') continue;
    if (!NUMBER.test(raw)) issues.push(issue(param, `${param} must be a whole number, digits without a leading zero`));
    else numbers[param] = Number(raw);
  }
  const fit = values.get('fit');
  const { width, height, x, y, quality } = numbers;

  if (!values.has('width')) issues.push(issue('width', 'width is required, first: w and the width in pixels'));
  else if (width !== undefined)
    issues.push(
      ...[
        range('width', width, MIN_SIZE, MAX_SIZE, ' pixels'),
        width % SIZE_STEP === 0 ? null : issue('width', `width must be a multiple of ${SIZE_STEP} pixels`),
      ].filter((found) => found !== null),
    );
  if (height !== undefined) {
    const found = range('height', height, MIN_SIZE, MAX_SIZE, ' pixels');
    if (found) issues.push(found);
  }
  if (fit !== undefined && !(FITS as readonly string[]).includes(fit))
    issues.push(issue('fit', `${fit} is not a fit Quire makes; the one fit is cover (crop to width × height)`));
  if (values.has('height') && fit === undefined)
    issues.push(issue('fit', 'fit is required with a height: add cover after it (w480-h320-cover)'));
  if (fit !== undefined && !values.has('height'))
    issues.push(issue('height', 'height is required with a fit: cover crops to width × height'));
  for (const [param, other] of [
    ['x', 'y'],
    ['y', 'x'],
  ] as const) {
    if (values.has(param) && !values.has(other)) issues.push(issue(other, `${other} is required with ${param}`));
    const value = numbers[param];
    if (value !== undefined) {
      const found = range(param, value, 0, FOCAL_SCALE, ' (thousandths of the image)');
      if (found) issues.push(found);
    }
  }
  if ((values.has('x') || values.has('y')) && fit === undefined)
    issues.push(issue(values.has('x') ? 'x' : 'y', 'a focal point applies to a crop only: add a height and cover'));
  if (quality !== undefined) {
    const found = range('quality', quality, QUALITY_RANGE.min, QUALITY_RANGE.max, '');
    if (found) issues.push(found);
  }
  if (issues.length > 0) return { issues };

  return {
    size: {
      width: width!,
      ...(height !== undefined ? { height, fit: fit as Fit } : {}),
      ...(x !== undefined && y !== undefined ? { focal: { x, y } } : {}),
      ...(quality !== undefined ? { quality } : {}),
    },
  };
}

/** Thrown when a crop would need more pixels than the image has (a row whose stored size is not its shown one). */
export class UpscaleError extends Error {}

/**
 * The box of a `cover` crop: the scale that fills width × height, and the window of that size whose centre is as
 * near the focal point (in thousandths) as the image's edges allow. The dashboard's previews draw the same window.
 */
export function coverCrop(
  image: { width: number; height: number },
  box: { width: number; height: number },
  focal: { x: number; y: number } = { x: FOCAL_SCALE / 2, y: FOCAL_SCALE / 2 },
) {
  const scale = Math.max(box.width / image.width, box.height / image.height);
  if (scale > 1) throw new UpscaleError(`${box.width}×${box.height} is larger than the image`);
  const scaled = {
    width: Math.max(box.width, Math.round(image.width * scale)),
    height: Math.max(box.height, Math.round(image.height * scale)),
  };
  const start = (length: number, window: number, at: number) =>
    Math.min(length - window, Math.max(0, Math.round((at / FOCAL_SCALE) * length - window / 2)));
  return {
    scaled,
    left: start(scaled.width, box.width, focal.x),
    top: start(scaled.height, box.height, focal.y),
  };
}
