import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { searchText } from '../../src/shared/search.js';

/*
 * Rows inserted straight into the tables, for suites that need media, authors, categories and tags
 * before (or without) going through those resources' own routes.
 */

const now = () => new Date().toISOString();

export async function insertMedia(
  db: Kysely<Database>,
  workspaceId: string,
  fields: { filename?: string; alt?: string | null } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const filename = fields.filename ?? 'picture.png';
  await db
    .insertInto('media')
    .values({
      id,
      workspace_id: workspaceId,
      storage_path: `${workspaceId}/${id}/${filename}`,
      filename,
      mime_type: 'image/png',
      size_bytes: 1234,
      width: 640,
      height: 480,
      alt: fields.alt ?? 'An alt text',
      caption: null,
      uploaded_by_user_id: null,
      uploaded_by_api_key_id: null,
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

export async function insertAuthor(
  db: Kysely<Database>,
  workspaceId: string,
  fields: { slug?: string; displayName?: string; avatarMediaId?: string | null } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const slug = fields.slug ?? `author-${id.slice(0, 8)}`;
  const displayName = fields.displayName ?? 'Ada Lovelace';
  await db
    .insertInto('authors')
    .values({
      id,
      workspace_id: workspaceId,
      slug,
      display_name: displayName,
      bio: 'Writes about engines.',
      credentials: null,
      avatar_media_id: fields.avatarMediaId ?? null,
      same_as: JSON.stringify(['https://example.com/ada']),
      is_active: true,
      seo: null,
      person: JSON.stringify({ jobTitle: 'Analyst' }),
      search_text: searchText(displayName, slug),
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

export async function insertCategory(
  db: Kysely<Database>,
  workspaceId: string,
  fields: { slug: string; name?: string; parentId?: string | null },
): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto('categories')
    .values({
      id,
      workspace_id: workspaceId,
      slug: fields.slug,
      name: fields.name ?? fields.slug,
      description: null,
      parent_id: fields.parentId ?? null,
      sort_order: 0,
      is_active: true,
      seo: null,
      collection_metadata: null,
      search_text: searchText(fields.name ?? fields.slug, fields.slug),
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}

export async function insertTag(
  db: Kysely<Database>,
  workspaceId: string,
  fields: { slug: string; name?: string },
): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto('tags')
    .values({
      id,
      workspace_id: workspaceId,
      slug: fields.slug,
      name: fields.name ?? fields.slug,
      seo: null,
      search_text: searchText(fields.name ?? fields.slug, fields.slug),
      created_at: now(),
      updated_at: now(),
    })
    .execute();
  return id;
}
