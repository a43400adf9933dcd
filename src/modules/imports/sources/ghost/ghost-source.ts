import { mkdtemp, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { badRequest } from '../../../../errors.js';
import type { ImportItem, ImportSource, SourceNote } from '../../import-source.js';
import { unpackZip } from '../../zip.js';
import { authorOf } from './ghost-authors.js';
import { entryOf, type EntryContext } from './ghost-entry.js';
import { isZipFile, locateExport } from './ghost-files.js';
import { readExport } from './ghost-json.js';
import { GhostMedia } from './ghost-media.js';
import { readRedirects, type GhostRedirects } from './ghost-redirects.js';
import { collectTables, text, type GhostTables } from './ghost-tables.js';
import { storable } from './ghost-text.js';

/*
 * `quire import ghost FILE`: a Ghost 4, 5 or 6 export (its JSON, or a zip of it with `content/images/`). Opening
 * reads the file once for its small tables; each `items()` reads it again for the posts, one at a time.
 */

export interface GhostSourceOptions {
  /** Each post's primary tag (its first public one) becomes its category, and such tags are categories too. */
  primaryTagAsCategory?: boolean;
  /** Ghost's redirects.json or redirects.yaml. */
  redirectsFile?: string | null;
  /** Where a zip is unpacked (in a folder of its own, removed by close()). */
  workDir: string;
}

const READ_VERSIONS = 'Ghost 4, 5 and 6 exports are read';

function checkVersion(name: string, tables: GhostTables): SourceNote[] {
  const version = text(tables.meta?.version);
  const major = version === null ? NaN : Number(/^v?(\d+)\./.exec(version.trim())?.[1]);
  if (version === null) throw badRequest(`${name} names no Ghost version (meta.version): ${READ_VERSIONS}`);
  if (!Number.isInteger(major))
    throw badRequest(`${name} is of an unknown Ghost version "${version}": ${READ_VERSIONS}`);
  if (major < 4) throw badRequest(`${name} is a Ghost ${version} export: ${READ_VERSIONS}`);
  return major > 6 ? [{ message: `a Ghost ${version} export, read as a Ghost 6 one` }] : [];
}

function siteUrlOf(tables: GhostTables): URL | null {
  const value = text(tables.settings.get('url'));
  if (value === null) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

async function unpack(
  file: string,
  workDir: string,
): Promise<{ dir: string; json: string; contentRoot: string | null }> {
  const dir = await mkdtemp(join(workDir, 'ghost-'));
  try {
    await unpackZip(file, dir);
    const found = await locateExport(dir);
    if (found === null) throw badRequest(`${basename(file)} holds no Ghost export (a .json file)`);
    return { dir, ...found };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

export async function openGhostSource(file: string, options: GhostSourceOptions): Promise<ImportSource> {
  const name = basename(file);
  const found = await stat(file).catch(() => null);
  if (found === null || !found.isFile()) throw badRequest(`${name} is not a file that can be read`);
  const zipped = (await isZipFile(file)) ? await unpack(file, options.workDir) : null;
  const json = zipped?.json ?? file;
  try {
    const tables = await collectTables(json);
    const versionNotes = checkVersion(name, tables);
    const redirects: GhostRedirects = options.redirectsFile
      ? await readRedirects(options.redirectsFile)
      : { redirects: [], notes: [] };
    return new GhostSource(
      json,
      tables,
      options,
      zipped?.contentRoot ?? null,
      zipped?.dir ?? null,
      [...versionNotes, ...redirects.notes],
      redirects,
    );
  } catch (error) {
    if (zipped !== null) await rm(zipped.dir, { recursive: true, force: true });
    throw error;
  }
}

class GhostSource implements ImportSource {
  readonly format = 'ghost';
  readonly site: string;
  private readonly media: GhostMedia;
  private readonly context: EntryContext;
  private notes: SourceNote[] = [];

  constructor(
    private readonly json: string,
    private readonly tables: GhostTables,
    options: GhostSourceOptions,
    contentRoot: string | null,
    private readonly unpacked: string | null,
    private readonly openNotes: SourceNote[],
    private readonly redirects: GhostRedirects,
  ) {
    const siteUrl = siteUrlOf(tables);
    this.site = siteUrl === null ? 'ghost' : siteUrl.toString().replace(/\/+$/, '');
    this.media = new GhostMedia(siteUrl, contentRoot);
    const publicTags = new Set<string>();
    for (const tag of tables.tags) {
      const id = text(tag.id);
      const tagName = text(tag.name) ?? '';
      // Internal tags (`#`-named) organise a site's templates; they were never shown to a reader.
      if (id !== null && tag.visibility !== 'internal' && !tagName.startsWith('#')) publicTags.add(id);
    }
    this.context = {
      tables,
      publicTags,
      primaryTagAsCategory: options.primaryTagAsCategory === true,
      media: this.media,
    };
  }

  /** Tags that are some post's primary tag (its first public one). */
  private primaryTags(): Set<string> {
    const primary = new Set<string>();
    for (const tags of this.tables.postsTags.values()) {
      const first = tags.find((tag) => this.context.publicTags.has(tag.tagId));
      if (first !== undefined) primary.add(first.tagId);
    }
    return primary;
  }

  async *items(): AsyncIterable<ImportItem> {
    this.notes = [...this.openNotes];
    for (const [index, user] of this.tables.users.entries()) {
      const author = authorOf(user);
      yield author ?? { type: 'failure', item: `users[${index}]`, message: 'the row has no id' };
    }
    const primary = this.context.primaryTagAsCategory ? this.primaryTags() : new Set<string>();
    let internal = 0;
    const tags = this.tables.tags.filter((tag) => {
      const keep = this.context.publicTags.has(text(tag.id) ?? '');
      if (!keep) internal += 1;
      return keep;
    });
    for (const tag of tags) {
      const id = text(tag.id)!;
      if (!primary.has(id)) continue;
      const slug = text(tag.slug);
      const description = text(tag.description);
      yield {
        type: 'category',
        sourceId: id,
        ...(slug === null ? {} : { slug: storable(slug) }),
        name: storable(text(tag.name) ?? slug ?? id),
        description: description === null || description.trim() === '' ? null : storable(description),
        parentSourceId: null,
      };
    }
    for (const tag of tags) {
      const id = text(tag.id)!;
      const slug = text(tag.slug);
      yield {
        type: 'tag',
        sourceId: id,
        ...(slug === null ? {} : { slug: storable(slug) }),
        name: storable(text(tag.name) ?? slug ?? id),
      };
    }
    if (internal > 0) this.notes.push({ message: `${internal} internal tags (#-named or internal) skipped` });
    for await (const event of readExport(this.json, { assemble: new Set(['posts']) }))
      if (event.kind === 'row') yield entryOf(event.value, this.context);
    yield* this.redirects.redirects;
  }

  locateMedia(src: string) {
    return this.media.locate(src);
  }

  entryCount(): Promise<number | null> {
    return Promise.resolve(this.tables.postCount);
  }

  sourceNotes(): SourceNote[] {
    return this.notes;
  }

  async close(): Promise<void> {
    if (this.unpacked !== null) await rm(this.unpacked, { recursive: true, force: true });
  }
}
