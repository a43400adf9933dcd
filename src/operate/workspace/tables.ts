import type { TSchema } from 'typebox';
import { fieldColumns, type FieldSpec } from '../../db/columns.js';
import { pageFields } from '../../modules/pages/pages.fields.js';
import { postFields } from '../../modules/posts/posts.fields.js';
import type { ResourceType } from '../../writes/changes.js';
import { SITE_SETTINGS_COLUMNS } from '../../modules/workspaces/site-settings.js';
import { searchText } from '../../shared/search.js';
import { searchWords } from '../../shared/search-words.js';

/** How a column is written in an archive row: JSON columns as the JSON value, booleans as booleans. */
export type ColumnType = 'uuid' | 'text' | 'timestamp' | 'integer' | 'boolean' | 'json';

export interface ArchivedColumn {
  type: ColumnType;
  nullable?: true;
  /** Added by a later minor version: an archive written before it lacks the column, read as null. */
  absentAsNull?: true;
}

/**
 * One table of a workspace export (docs/operate.md, "How a table joins the archive"). The archive holds the
 * columns listed here, the workspace id left out (an import writes its own); what a write derives for the
 * indexes (`derived`) is computed again on import rather than trusted.
 */
export interface ArchivedTable {
  name: string;
  /** The columns that identify a row: an import skips a row whose key is already there. */
  key: readonly string[];
  columns: Readonly<Record<string, ArchivedColumn>>;
  /** Columns naming a row of another archived table (or of this one): checked before anything is written. */
  references?: Readonly<Record<string, string>>;
  /**
   * Columns naming a row of the installation rather than of the workspace (who uploaded a media item): kept
   * when the installation imported into has that row, else written as null.
   */
  installationReferences?: Readonly<Record<string, 'users' | 'api_keys'>>;
  /** Unique within a workspace besides the key: a row that would collide with another is refused. */
  unique?: { columns: readonly string[]; liveOnly?: true };
  /**
   * The row of another table each row is part of (a post's tags, its revisions), for tables keyed by several
   * columns: written with that row when the import writes it, left with it when the import keeps it.
   */
  belongsTo?: { column: string; table: string };
  /** The resource a row is, for its content event; absent for rows that are part of another (a post's tags). */
  resource?: { type: ResourceType; slug?: string };
  /** Columns the database stores for its indexes, computed from the row on import. */
  derived?: (row: Record<string, unknown>) => Record<string, unknown>;
  /** The order rows are exported in, so that a row comes after the rows it references. */
  orderBy?: 'parents-first';
}

const uuid = { type: 'uuid' } as const;
const uuidOrNull = { type: 'uuid', nullable: true } as const;
const text = { type: 'text' } as const;
const textOrNull = { type: 'text', nullable: true } as const;
const time = { type: 'timestamp' } as const;
const integer = { type: 'integer' } as const;
const integerOrNull = { type: 'integer', nullable: true } as const;
const bool = { type: 'boolean' } as const;
const json = { type: 'json' } as const;
const jsonOrNull = { type: 'json', nullable: true } as const;

/**
 * The archived columns of a resource's fields (db/columns.ts, FieldSpec), in the fields' order, each typed by
 * the field's schema: a UUID, a timestamp, a text (or one of several), an integer, a boolean, else JSON.
 */
export function archivedColumns(fields: Readonly<Record<string, FieldSpec>>): Record<string, ArchivedColumn> {
  const columns: Record<string, ArchivedColumn> = {};
  for (const field of Object.values(fields)) {
    const schema = field.answer ?? field.write;
    if (!schema) continue;
    for (const name of fieldColumns(field)) columns[name] = archivedColumn(schema, field.archivedSince);
  }
  return columns;
}

function archivedColumn(schema: TSchema, archivedSince: number | undefined): ArchivedColumn {
  const variants = ((schema as { anyOf?: TSchema[] }).anyOf ?? [schema]) as Array<Record<string, unknown>>;
  const values = variants.filter((variant) => variant.type !== 'null');
  const nullable = values.length < variants.length;
  const type = archivedType(values);
  return {
    type,
    ...(nullable ? { nullable: true as const } : {}),
    ...(archivedSince !== undefined ? { absentAsNull: true as const } : {}),
  };
}

function archivedType(values: Array<Record<string, unknown>>): ColumnType {
  const only = values.length === 1 ? values[0] : undefined;
  if (only?.type === 'string' && only.format === 'uuid') return 'uuid';
  if (only?.type === 'string' && only.format === 'date-time') return 'timestamp';
  if (values.every((value) => value.type === 'string' || typeof value.const === 'string')) return 'text';
  if (only?.type === 'integer') return 'integer';
  if (only?.type === 'boolean') return 'boolean';
  return 'json';
}

/**
 * The minor version of the workspace archive this Quire writes: format 1.3's (media focal_point), or the newest
 * a field's column was first archived in (FieldSpec's `archivedSince`).
 */
export const WORKSPACE_ARCHIVE_MINOR = Math.max(
  3,
  ...[postFields, pageFields].flatMap((fields) =>
    Object.values(fields as Readonly<Record<string, FieldSpec>>).map((field) => field.archivedSince ?? 0),
  ),
);

const str = (value: unknown) => (typeof value === 'string' ? value : null);

/** The columns of post_revisions and page_revisions (migration 0012), alike but for the table they revise. */
function revisionsTable(name: string, revised: string): ArchivedTable {
  return {
    name,
    key: ['resource_id', 'n'],
    columns: {
      resource_id: uuid,
      n: integer,
      action: text,
      slug: text,
      title: text,
      fields: json,
      actor_user_id: uuidOrNull,
      actor_api_key_id: uuidOrNull,
      created_at: time,
    },
    references: { resource_id: revised },
    belongsTo: { column: 'resource_id', table: revised },
    installationReferences: { actor_user_id: 'users', actor_api_key_id: 'api_keys' },
  };
}

/** Every table a workspace export holds, in the order they are written and imported. */
export const ARCHIVED_TABLES: readonly ArchivedTable[] = [
  {
    name: 'media',
    key: ['id'],
    columns: {
      id: uuid,
      filename: text,
      mime_type: text,
      size_bytes: integer,
      width: integerOrNull,
      height: integerOrNull,
      alt: textOrNull,
      caption: textOrNull,
      // 1.2: what an upload's decoding found (migration 0015).
      placeholder: { ...textOrNull, absentAsNull: true },
      dominant_color: { ...textOrNull, absentAsNull: true },
      // 1.3: where a crop is centred (migration 0022).
      focal_point: { ...jsonOrNull, absentAsNull: true },
      uploaded_by_user_id: uuidOrNull,
      uploaded_by_api_key_id: uuidOrNull,
      created_at: time,
      updated_at: time,
    },
    installationReferences: { uploaded_by_user_id: 'users', uploaded_by_api_key_id: 'api_keys' },
    resource: { type: 'media' },
    derived: (row) => ({ search_text: searchText(str(row.alt), str(row.caption), str(row.filename)) }),
  },
  {
    name: 'authors',
    key: ['id'],
    columns: {
      id: uuid,
      slug: text,
      display_name: text,
      bio: textOrNull,
      credentials: textOrNull,
      avatar_media_id: uuidOrNull,
      same_as: json,
      is_active: bool,
      seo: jsonOrNull,
      person: jsonOrNull,
      created_at: time,
      updated_at: time,
    },
    references: { avatar_media_id: 'media' },
    unique: { columns: ['slug'] },
    resource: { type: 'author', slug: 'slug' },
    derived: (row) => ({ search_text: searchText(str(row.display_name), str(row.slug)) }),
  },
  {
    name: 'categories',
    key: ['id'],
    columns: {
      id: uuid,
      slug: text,
      name: text,
      description: textOrNull,
      parent_id: uuidOrNull,
      sort_order: integer,
      is_active: bool,
      seo: jsonOrNull,
      collection_metadata: jsonOrNull,
      created_at: time,
      updated_at: time,
    },
    references: { parent_id: 'categories' },
    unique: { columns: ['slug'] },
    resource: { type: 'category', slug: 'slug' },
    derived: (row) => ({ search_text: searchText(str(row.name), str(row.slug)) }),
    orderBy: 'parents-first',
  },
  {
    name: 'tags',
    key: ['id'],
    columns: { id: uuid, slug: text, name: text, seo: jsonOrNull, created_at: time, updated_at: time },
    unique: { columns: ['slug'] },
    resource: { type: 'tag', slug: 'slug' },
    derived: (row) => ({ search_text: searchText(str(row.name), str(row.slug)) }),
  },
  {
    name: 'posts',
    key: ['id'],
    // A post's fields say which columns they stand for (posts.fields.ts).
    columns: archivedColumns(postFields),
    references: { featured_media_id: 'media', author_id: 'authors', category_id: 'categories' },
    unique: { columns: ['slug'], liveOnly: true },
    resource: { type: 'post', slug: 'slug' },
    derived: (row) => ({
      search_head: searchWords(str(row.title), str(row.excerpt)),
      search_text: searchWords(str(row.body_text)),
    }),
  },
  {
    name: 'post_tags',
    key: ['post_id', 'tag_id'],
    columns: { post_id: uuid, tag_id: uuid, created_at: time },
    references: { post_id: 'posts', tag_id: 'tags' },
    belongsTo: { column: 'post_id', table: 'posts' },
  },
  {
    name: 'related_posts',
    key: ['post_id', 'related_post_id'],
    columns: { post_id: uuid, related_post_id: uuid, position: integer },
    references: { post_id: 'posts', related_post_id: 'posts' },
    belongsTo: { column: 'post_id', table: 'posts' },
  },
  revisionsTable('post_revisions', 'posts'),
  {
    name: 'pages',
    key: ['id'],
    // A page's fields say which columns they stand for (pages.fields.ts).
    columns: archivedColumns(pageFields),
    unique: { columns: ['slug'], liveOnly: true },
    resource: { type: 'page', slug: 'slug' },
    derived: (row) => ({ search_head: searchWords(str(row.title)), search_text: searchWords(str(row.body_text)) }),
  },
  revisionsTable('page_revisions', 'pages'),
  {
    name: 'redirects',
    key: ['id'],
    columns: { id: uuid, from_path: text, to_path: text, status_code: integer, created_at: time, updated_at: time },
    unique: { columns: ['from_path'] },
    resource: { type: 'redirect' },
  },
  {
    name: 'link_health',
    key: ['id'],
    columns: {
      id: uuid,
      path: text,
      referrer: textOrNull,
      status_code: integer,
      hit_count: integer,
      first_seen_at: time,
      last_seen_at: time,
    },
    unique: { columns: ['path'] },
  },
];

/** The workspace row's site settings: one row, applied to the workspace imported into. */
export const SETTINGS_TABLE = 'site_settings';
export const SETTINGS_COLUMNS = SITE_SETTINGS_COLUMNS;

/**
 * Columns of the archived tables that are deliberately not archived: the workspace id (an import writes its
 * own), a media row's storage path (`<workspace>/<media>/<filename>`, rebuilt for the workspace imported
 * into), and what `derived` computes again. A test holds every column of the schema to this list or the
 * table's own, so a column added by a migration must be placed in one of them.
 */
export const NOT_ARCHIVED: Readonly<Record<string, readonly string[]>> = {
  media: ['workspace_id', 'storage_path', 'search_text'],
  authors: ['workspace_id', 'search_text'],
  categories: ['workspace_id', 'search_text'],
  tags: ['workspace_id', 'search_text'],
  // render_stamp labels stored renders, a cache an import does not carry.
  posts: ['workspace_id', 'search_head', 'search_text', 'render_stamp'],
  post_tags: ['workspace_id'],
  related_posts: ['workspace_id'],
  pages: ['workspace_id', 'search_head', 'search_text'],
  // opened_at keeps a draft's saves on this installation in one revision; an imported revision is a step of its own.
  post_revisions: ['workspace_id', 'opened_at'],
  page_revisions: ['workspace_id', 'opened_at'],
  redirects: ['workspace_id'],
  link_health: ['workspace_id'],
};

/**
 * Tables of the schema that a workspace export leaves out, and why: accounts and keys belong to the
 * installation (and hold password hashes and key ciphertexts), the rest is history or caches.
 */
export const TABLES_NOT_EXPORTED: Readonly<Record<string, string>> = {
  users: 'accounts belong to the installation; never password hashes',
  workspaces: 'its name, slug and site settings are in the header and site_settings; its counters are recomputed',
  memberships: 'who may do what is the installation’s',
  api_keys: 'never API keys',
  content_keys: 'never keys: a site’s content key is made anew where the workspace lands',
  sessions: 'dashboard sign-ins',
  sign_in_attempts: 'the sign-in throttle',
  post_renders: 'a cache that reads rebuild',
  media_variants: 'the resized copies made of each image, which an archive does not carry: remade on request',
  post_status_counts: 'kept by triggers as the posts are imported',
  post_tag_counts: 'kept by triggers as the tags are attached',
  posts_words: 'the word index, kept by triggers as the posts are imported',
  pages_words: 'the word index, kept by triggers as the pages are imported',
  content_events: 'the import records its own events',
  content_event_horizons: 'how far retention pruned the events, which are not exported either',
  cdn_purge_cursors: 'how far this installation has purged its CDN, of events that are not exported either',
  import_ledger: 'which items of another system were imported: its ids mean nothing where the workspace lands',
  pending_changes:
    'edits not live yet, made on the versions this installation holds: they do not apply where the workspace lands',
  review_links: 'links to this installation, signed with its master key',
  invitations: 'who may join is the installation’s, and its links are to this installation',
  password_resets: 'links to this installation for its own accounts',
  totp_factors: 'second factors belong to accounts, which are the installation’s; never their secrets',
  recovery_codes: 'second factors belong to accounts, which are the installation’s',
  sign_in_challenges: 'sign-ins awaiting a second factor on this installation',
  oidc_logins: 'sign-ons awaiting their provider’s answer on this installation',
  reviews: 'a review is a conversation between this installation’s accounts; the draft itself is exported',
  review_entries: 'the thread of a review, by this installation’s accounts',
  notifications: 'what this installation’s accounts were told',
  passkeys: 'passkeys belong to accounts, which are the installation’s, and to its relying party (QUIRE_PUBLIC_URL)',
  webauthn_challenges: 'passkey ceremonies in flight on this installation',
  audit_events:
    'what was done on this installation, by its accounts and keys; where the workspace lands, its log begins',
  webhook_endpoints: 'where another installation sends its webhooks is its own choice; secrets never leave',
  webhook_events: 'the delivery history of this installation’s endpoints',
  webhook_deliveries: 'the delivery history of this installation’s endpoints',
  webhook_attempts: 'the delivery history of this installation’s endpoints',
};

export function archivedTable(name: string): ArchivedTable | undefined {
  return ARCHIVED_TABLES.find((table) => table.name === name);
}
