/* eslint-disable @typescript-eslint/no-explicit-any -- a migration is written against the schema as it was then */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectHelpers } from '../dialects/dialect.js';

/**
 * The whole schema the specification names. Later migrations add behaviour's columns; this one holds
 * every table, its constraints and the indexes the list filters use.
 */
export function initial({ types: t }: DialectHelpers): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('users')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('workspaces')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('owner_user_id', t.uuid, (c) => c.notNull().references('users.id'))
        .addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('site_name', 'text')
        .addColumn('site_url', 'text')
        // No foreign key: media references workspaces, and SQLite cannot add a constraint after the fact.
        // The media service clears it when the media row goes.
        .addColumn('logo_media_id', t.uuid)
        .addColumn('publisher_name', 'text')
        .addColumn('publisher_url', 'text')
        .addColumn('post_url_pattern', 'text')
        .addColumn('page_url_pattern', 'text')
        .addColumn('author_url_pattern', 'text')
        .addColumn('category_url_pattern', 'text')
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('user_id', t.uuid, (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('permissions', t.json, (c) => c.notNull())
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['workspace_id', 'user_id'])
        .execute();
      await db.schema.createIndex('memberships_user_idx').on('memberships').column('user_id').execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('created_by_user_id', t.uuid, (c) => c.notNull().references('users.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_encrypted', 'text', (c) => c.notNull())
        .addColumn('master_key_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', t.timestamp)
        .addColumn('revoked_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('api_keys_workspace_idx')
        .on('api_keys')
        .columns(['workspace_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('media')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('storage_path', 'text', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('alt', 'text')
        .addColumn('caption', 'text')
        .addColumn('uploaded_by_user_id', t.uuid, (c) => c.references('users.id').onDelete('set null'))
        .addColumn('uploaded_by_api_key_id', t.uuid, (c) => c.references('api_keys.id').onDelete('set null'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('media_workspace_created_idx')
        .on('media')
        .columns(['workspace_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('media_workspace_mime_idx')
        .on('media')
        .columns(['workspace_id', 'mime_type'])
        .execute();

      await db.schema
        .createTable('authors')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('bio', 'text')
        .addColumn('credentials', 'text')
        .addColumn('avatar_media_id', t.uuid, (c) => c.references('media.id').onDelete('set null'))
        .addColumn('same_as', t.json, (c) => c.notNull())
        .addColumn('is_active', t.bool, (c) => c.notNull())
        .addColumn('seo', t.json)
        .addColumn('person', t.json)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('authors_workspace_slug_key', ['workspace_id', 'slug'])
        .execute();

      await db.schema
        .createTable('categories')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('parent_id', t.uuid, (c) => c.references('categories.id'))
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_active', t.bool, (c) => c.notNull())
        .addColumn('seo', t.json)
        .addColumn('collection_metadata', t.json)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('categories_workspace_slug_key', ['workspace_id', 'slug'])
        .execute();
      await db.schema
        .createIndex('categories_parent_idx')
        .on('categories')
        .columns(['workspace_id', 'parent_id'])
        .execute();

      await db.schema
        .createTable('tags')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('seo', t.json)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('tags_workspace_slug_key', ['workspace_id', 'slug'])
        .execute();

      await db.schema
        .createTable('posts')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('body_json', t.json, (c) => c.notNull())
        .addColumn('body_text', 'text', (c) => c.notNull().defaultTo(''))
        // title, excerpt and bodyText, NFC-normalised and lowercased by the application (Unicode-aware,
        // which SQLite's lower() is not): `q` is a literal substring search over this one column.
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('toc_items', t.json, (c) => c.notNull())
        .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reading_time_min', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('featured_media_id', t.uuid, (c) => c.references('media.id').onDelete('set null'))
        // Set null rather than restrict: an author or category attached only to soft-deleted posts may go.
        .addColumn('author_id', t.uuid, (c) => c.references('authors.id').onDelete('set null'))
        .addColumn('category_id', t.uuid, (c) => c.references('categories.id').onDelete('set null'))
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('draft', 'scheduled', 'published', 'archived')`),
        )
        .addColumn('published_at', t.timestamp)
        .addColumn('scheduled_at', t.timestamp)
        .addColumn('is_how_to', t.bool, (c) => c.notNull())
        .addColumn('summary_for_ai', 'text')
        .addColumn('canonical_url', 'text')
        .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('seo', t.json)
        .addColumn('schema_type', 'text', (c) => c.notNull().defaultTo('BlogPosting'))
        .addColumn('structured_data', t.json)
        .addColumn('structured_blocks', t.json, (c) => c.notNull())
        .addColumn('seo_score', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('readability_score', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('deleted_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      // Slugs are unique among live rows only: a soft delete frees the slug.
      await db.schema
        .createIndex('posts_workspace_slug_live_key')
        .on('posts')
        .columns(['workspace_id', 'slug'])
        .unique()
        .where(sql<boolean>`deleted_at is null`)
        .execute();
      for (const column of [
        'created_at',
        'updated_at',
        'published_at',
        'title',
        'status',
        'seo_score',
        'readability_score',
        'author_id',
        'category_id',
      ]) {
        await db.schema
          .createIndex(`posts_workspace_${column}_idx`)
          .on('posts')
          .columns(['workspace_id', column])
          .where(sql<boolean>`deleted_at is null`)
          .execute();
      }

      await db.schema
        .createTable('post_tags')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('post_id', t.uuid, (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('tag_id', t.uuid, (c) => c.notNull().references('tags.id').onDelete('cascade'))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint('post_tags_pk', ['post_id', 'tag_id'])
        .execute();
      await db.schema.createIndex('post_tags_tag_idx').on('post_tags').columns(['tag_id', 'post_id']).execute();

      await db.schema
        .createTable('related_posts')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('post_id', t.uuid, (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('related_post_id', t.uuid, (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('related_posts_pk', ['post_id', 'related_post_id'])
        .execute();

      await db.schema
        .createTable('pages')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body_json', t.json, (c) => c.notNull())
        .addColumn('body_text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('page_type', 'text', (c) => c.notNull().defaultTo('WebPage'))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'published')`))
        .addColumn('published_at', t.timestamp)
        .addColumn('seo', t.json)
        .addColumn('deleted_at', t.timestamp)
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('pages_workspace_slug_live_key')
        .on('pages')
        .columns(['workspace_id', 'slug'])
        .unique()
        .where(sql<boolean>`deleted_at is null`)
        .execute();
      await db.schema
        .createIndex('pages_workspace_created_idx')
        .on('pages')
        .columns(['workspace_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('redirects')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('from_path', 'text', (c) => c.notNull())
        .addColumn('to_path', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull().check(sql`status_code in (301, 302, 307, 308)`))
        .addColumn('created_at', t.timestamp, (c) => c.notNull())
        .addColumn('updated_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('redirects_workspace_from_key', ['workspace_id', 'from_path'])
        .execute();

      await db.schema
        .createTable('link_health')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('referrer', 'text')
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('hit_count', 'integer', (c) => c.notNull())
        .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
        .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
        .addUniqueConstraint('link_health_workspace_path_key', ['workspace_id', 'path'])
        .execute();
      await db.schema
        .createIndex('link_health_hits_idx')
        .on('link_health')
        .columns(['workspace_id', 'hit_count'])
        .execute();
      await db.schema
        .createIndex('link_health_seen_idx')
        .on('link_health')
        .columns(['workspace_id', 'last_seen_at'])
        .execute();
    },
  };
}
