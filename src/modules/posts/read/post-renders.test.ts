import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../../test/helpers/json-ld-fixtures.js';
import type { AuthorRow, CategoryRow, MediaRow, StoredPost } from '../../../db/schema.js';
import { compileSerializer } from '../../../http/serialization.js';
import type { PostEmbeds } from '../posts.embeds.types.js';
import { parsePost } from '../posts.embeds.js';
import { postColumns } from '../posts.columns.js';
import { presentPost } from '../posts.presenter.js';
import { POST_RENDER_VERSION } from './post-renders.js';
import { Post } from '../posts.schemas.js';

const W = '00000000-0000-4000-8000-000000000001';
const at = '2026-01-02T03:04:05.006Z';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const media = (n: number): MediaRow => ({
  id: id(n),
  workspace_id: W,
  storage_path: `m/${n}.png`,
  filename: `${n}.png`,
  mime_type: 'image/png',
  size_bytes: 100 + n,
  width: 640,
  height: 480,
  alt: `alt ${n}`,
  caption: null,
  uploaded_by_user_id: null,
  uploaded_by_api_key_id: null,
  search_text: '',
  placeholder: null,
  dominant_color: null,
  focal_point: null,
  created_at: at,
  updated_at: at,
});
const author: AuthorRow = {
  id: id(20),
  workspace_id: W,
  slug: 'ada',
  display_name: 'Ada',
  bio: 'Bio',
  credentials: null,
  avatar_media_id: id(11),
  same_as: '["https://ada.example"]',
  is_active: 1,
  seo: null,
  person: null,
  search_text: '',
  created_at: at,
  updated_at: at,
};
const category = (n: number, parent: string | null): CategoryRow => ({
  id: id(n),
  workspace_id: W,
  slug: `c${n}`,
  name: `C${n}`,
  description: null,
  parent_id: parent,
  sort_order: 0,
  is_active: 1,
  seo: null,
  collection_metadata: null,
  search_text: '',
  created_at: at,
  updated_at: at,
});
// Every writable column at its value on create unless set here, so that a field added since needs no line.
const row = {
  ...postColumns.write({}, { create: true }),
  id: id(1),
  workspace_id: W,
  slug: 'a-post',
  title: 'A post',
  // Inline Markdown, which the jsonLd reads as plain text (docs/seo.md).
  excerpt: 'Short and *sweet*',
  body_text: 'Intro Text',
  body_json: JSON.stringify([
    { type: 'heading', level: 2, text: 'Intro', id: 'intro' },
    { type: 'paragraph', text: 'Text' },
    { type: 'image', mediaId: id(12) },
  ]),
  toc_items: '[{"level":2,"text":"Intro","id":"intro"}]',
  word_count: 2,
  reading_time_min: 1,
  featured_media_id: id(10),
  author_id: id(20),
  category_id: id(31),
  status: 'published',
  published_at: at,
  scheduled_at: null,
  is_how_to: 0,
  summary_for_ai: null,
  canonical_url: null,
  view_count: 7,
  seo: '{"metaTitle":"Meta"}',
  schema_type: 'BlogPosting',
  structured_data: null,
  structured_blocks: '[]',
  seo_score: 50,
  readability_score: 60,
  deleted_at: null,
  created_at: at,
  updated_at: at,
} as StoredPost;
const embeds: PostEmbeds = {
  settings: SETTINGS,
  tags: new Map([[id(1), [{ id: id(40), workspaceId: W, slug: 't', name: 'T', seo: null, createdAt: at }]]]),
  related: new Map([
    [
      id(1),
      [{ post_id: id(1), id: id(2), slug: 'b', title: 'B', excerpt: '', status: 'draft', featured_media_id: null }],
    ],
  ]),
  authors: new Map([[author.id, author]]),
  categories: new Map([
    [id(30), category(30, null)],
    [id(31), category(31, id(30))],
  ]),
  media: new Map([10, 11, 12].map((n) => [id(n), media(n)])),
};

/**
 * The fields of Post when the fingerprint below was taken. A field added to the schema moves the render format
 * by itself (renderFormat hashes the schema); only what the presenter makes of these must be fingerprinted.
 */
const RECORDED_FIELDS = [
  'id',
  'workspaceId',
  'slug',
  'title',
  'excerpt',
  'bodyJson',
  'bodyText',
  'tocItems',
  'readingTimeMin',
  'featuredMediaId',
  'featuredMedia',
  'authorId',
  'author',
  'categoryId',
  'category',
  'status',
  'publishedAt',
  'scheduledAt',
  'isHowTo',
  'summaryForAi',
  'canonicalUrl',
  'viewCount',
  'seo',
  'schemaType',
  'structuredData',
  'structuredBlocks',
  'seoScore',
  'readabilityScore',
  'jsonLd',
  'deletedAt',
  'createdAt',
  'updatedAt',
  'tags',
  'relatedPosts',
];

describe('POST_RENDER_VERSION', () => {
  it("moves whenever the presenter changes a post's serialized form", () => {
    const json = JSON.parse(
      compileSerializer<Post>(Post)(presentPost(parsePost(row), embeds, 'https://cms.example')),
    ) as Record<string, unknown>;
    const known = Object.fromEntries(Object.entries(json).filter(([field]) => RECORDED_FIELDS.includes(field)));
    const fingerprint = crypto.hash('sha1', JSON.stringify(known), 'hex');
    // When this fails, the form of a stored render changed: bump POST_RENDER_VERSION (renders stored
    // by earlier builds would otherwise be served) and record the new pair here.
    expect({ version: POST_RENDER_VERSION, fingerprint }).toEqual({
      version: 6,
      fingerprint: 'b770322fdc562a9c12bcbb172589749cd22a4d69',
    });
  });
});
