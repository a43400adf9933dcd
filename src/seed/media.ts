import type { MediaRow } from '../db/schema.js';
import { searchText } from '../shared/search.js';
import { slugFrom } from '../shared/slug.js';
import { AUTHORS } from './catalog.js';
import { seededId } from './ids.js';
import { renderArtwork, type Pattern, type Rgb } from './png.js';
import { Random } from './random.js';
import { CATEGORY_TREE, DOMAIN_NAMES, type DomainName } from './topics.js';

const DAY_MS = 86_400_000;

const COLOURS: Array<[string, Rgb]> = [
  ['teal', [0, 128, 128]],
  ['amber', [255, 191, 0]],
  ['coral', [255, 127, 80]],
  ['indigo', [75, 0, 130]],
  ['olive', [128, 128, 0]],
  ['slate', [112, 128, 144]],
  ['rose', [255, 102, 153]],
  ['sky blue', [135, 206, 235]],
  ['mint', [152, 255, 152]],
  ['plum', [142, 69, 133]],
  ['sand', [194, 178, 128]],
  ['forest green', [34, 139, 34]],
  ['crimson', [220, 20, 60]],
  ['navy', [0, 0, 128]],
  ['gold', [255, 215, 0]],
  ['lavender', [181, 126, 220]],
];

const PATTERNS: Array<[Pattern, string]> = [
  ['stripes', 'diagonal stripes'],
  ['checks', 'a soft checkerboard'],
  ['rings', 'concentric rings'],
  ['plain', 'no pattern'],
];

// Small enough that five hundred of them render in about a second; the shapes of real header images.
const SIZES: Array<[number, number]> = [
  [640, 360],
  [480, 320],
  [400, 300],
  [320, 320],
  [560, 315],
  [480, 270],
  [600, 400],
  [360, 480],
];
const AVATAR_SIZE = 128;

/** One seeded image: its row and its bytes. The first twelve are the authors' avatars. */
export interface SeedMedia {
  row: MediaRow;
  file: Buffer;
  /** The domain whose posts show it; null for avatars. */
  domain: DomainName | null;
}

/** 500 images from 1,000 posts on, half as many as posts below that, and never fewer than 20. */
export function mediaCount(posts: number): number {
  return posts >= 1000 ? 500 : Math.max(20, Math.floor(posts / 2));
}

export function planMedia(count: number, workspaceId: string, ownerUserId: string | null, anchor: number): SeedMedia[] {
  return Array.from({ length: count }, (_, index) => {
    const r = new Random(`media:${index}`);
    const [fromName, from] = r.pick(COLOURS);
    let [toName, to] = r.pick(COLOURS);
    if (toName === fromName)
      [toName, to] = COLOURS[(COLOURS.findIndex(([name]) => name === fromName) + 5) % COLOURS.length]!;
    const author = AUTHORS[index];
    const [pattern, patternText] = author ? PATTERNS[2]! : r.pick(PATTERNS);
    const [width, height] = author ? [AVATAR_SIZE, AVATAR_SIZE] : r.pick(SIZES);
    const domain = author ? null : DOMAIN_NAMES[index % DOMAIN_NAMES.length]!;
    const number = String(index).padStart(3, '0');
    const filename = author
      ? `avatar-${slugFrom(author.name, 'author')}.png`
      : `${slugFrom(`${domain} ${fromName} ${toName} ${pattern}`, 'image')}-${number}.png`;
    const alt = author
      ? `Abstract avatar for ${author.name}: ${fromName} and ${toName} rings`
      : `Abstract ${fromName}-to-${toName} gradient with ${patternText}`;
    const caption =
      !author && r.chance(0.5) ? `Illustration from the ${CATEGORY_TREE[domain!].name} series, no. ${index}` : null;
    // Every image predates every post, as an upload library would.
    const createdAt = new Date(anchor - 730 * DAY_MS - Math.floor(r.next() * 30 * DAY_MS)).toISOString();
    const file = renderArtwork({ width, height, from, to, pattern });
    const id = seededId(workspaceId, 'media', index);
    const row: MediaRow = {
      id,
      workspace_id: workspaceId,
      storage_path: `${workspaceId}/${id}/${filename}`,
      filename,
      mime_type: 'image/png',
      size_bytes: file.length,
      width,
      height,
      alt,
      caption,
      uploaded_by_user_id: ownerUserId,
      uploaded_by_api_key_id: null,
      search_text: searchText(alt, caption, filename),
      // The seed writes rows directly and skips the upload's decoding: its artwork has no placeholder.
      placeholder: null,
      dominant_color: null,
      focal_point: null,
      created_at: createdAt,
      updated_at: createdAt,
    };
    return { row, file, domain };
  });
}
