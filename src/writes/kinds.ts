import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ResourceType } from './changes.js';

/** What a revision keeps of a post or page: its writable fields, and the slug and title a list shows. */
export interface Snapshot {
  slug: string;
  title: string;
  /** Whether a later save may merge into the revision depends on it (writes/revision-windows.ts). */
  status: string;
  /**
   * The writable fields as one JSON object, as a revision stores them: the kind builds the text with its stored
   * JSON columns (the bodies) put in as they are (shared/json.ts jsonWithRaw), since nothing compares them.
   */
  fields: string;
}

/**
 * What the write path needs of one kind of content, which only its module knows: the write path sits below the
 * modules, so each kind hands these in (src/content-kinds.ts builds them all) rather than the write path
 * importing every resource's schema and repository.
 */
export interface ContentKind {
  /** A write's answer serialized as the external API answers it (a webhook's `data`). */
  serialize(answer: unknown): string;
  /** The revision snapshots of the kind's rows as the write left them: posts and pages keep revisions. */
  snapshots?(trx: Kysely<Database>, workspaceId: string, ids: string[]): Promise<Map<string, Snapshot>>;
}

export type ContentKinds = Readonly<Record<ResourceType, ContentKind>>;

let installed: ContentKinds | undefined;

/** Hands the write path every kind; createServices does it, so whatever builds the services can write. */
export function installContentKinds(kinds: ContentKinds): void {
  installed = kinds;
}

/** The kind of `type`; a write before the kinds were handed in fails here rather than serializing wrongly. */
export function contentKind(type: ResourceType): ContentKind {
  const kind = installed?.[type];
  if (!kind)
    throw new Error(
      `The write path has no content kind '${type}': build the services (createServices hands in ` +
        'src/content-kinds.ts) before writing content',
    );
  return kind;
}
