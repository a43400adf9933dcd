import { postColumns } from '../modules/posts/posts.columns.js';
import { Post } from '../modules/posts/posts.schemas.js';
import type { Json, JsonObject } from './components.js';

/*
 * Examples shown by the reference page and generated clients. The test that lints the document also
 * validates each one against its schema, so they cannot drift from what the API accepts and answers.
 */

const WORKSPACE = '0b6f1c52-3d0e-4a8e-9a43-5b2f0f1d7c11';
const AUTHOR = '4f2d8a10-7c3b-4e55-8f61-2a9d0c3e5b70';
const CATEGORY = '9a1e7b64-5f02-4c8d-b3a7-6e4f1d2c8a90';
const TAG = 'c3d4e5f6-0a1b-4c2d-8e3f-4a5b6c7d8e9f';
const MEDIA = '6e8f2a14-9b3c-4d7e-a1f2-3c4d5e6f7a8b';
const POST = '2c9a7e15-8d4b-4f3a-9e6c-1b7d5a3f2e40';
const KEY = 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b';
const CREATED = '2025-03-02T09:14:07.512Z';
const UPDATED = '2025-03-04T16:40:22.108Z';
const SITE = 'https://example.com';

const media: JsonObject & { url: string } = {
  id: MEDIA,
  workspaceId: WORKSPACE,
  url: `https://cms.example.com/media/${WORKSPACE}/${MEDIA}/sourdough-crumb.jpg`,
  storagePath: `${WORKSPACE}/${MEDIA}/sourdough-crumb.jpg`,
  filename: 'sourdough-crumb.jpg',
  mimeType: 'image/jpeg',
  alt: 'An open crumb of a sourdough loaf',
  caption: null,
  sizeBytes: 184_233,
  width: 1600,
  height: 1067,
  uploadedByUserId: null,
  uploadedByApiKeyId: KEY,
  createdAt: CREATED,
};

const author = {
  id: AUTHOR,
  workspaceId: WORKSPACE,
  slug: 'ada-baker',
  displayName: 'Ada Baker',
  bio: 'Bakes every morning and writes about it in the afternoon.',
  credentials: null,
  avatarMediaId: null,
  avatarMedia: null,
  sameAs: ['https://social.example/@ada'],
  isActive: true,
  seo: null,
  person: { jobTitle: 'Head baker' },
  jsonLd: { '@context': 'https://schema.org', '@type': 'Person', name: 'Ada Baker', url: `${SITE}/authors/ada-baker` },
  createdAt: CREATED,
  updatedAt: CREATED,
};

const category = {
  id: CATEGORY,
  workspaceId: WORKSPACE,
  slug: 'bread',
  name: 'Bread',
  description: null,
  path: 'bread',
  parentId: null,
  sortOrder: 0,
  isActive: true,
  seo: null,
  collectionMetadata: { includeChildCategories: false, sortPostsBy: 'publishedAt' },
  jsonLd: { '@context': 'https://schema.org', '@type': 'CollectionPage', name: 'Bread', url: `${SITE}/category/bread` },
  createdAt: CREATED,
  updatedAt: CREATED,
};

const body: JsonObject[] = [
  { type: 'paragraph', text: 'A starter is flour, water and **patience**.' },
  { type: 'heading', level: 2, text: 'Feeding the starter', id: 'feeding-the-starter' },
  { type: 'list', style: 'ordered', items: ['Discard half', 'Add 50 g flour and 50 g water', 'Wait until it doubles'] },
  { type: 'image', mediaId: MEDIA, alt: 'An open crumb of a sourdough loaf', url: media.url },
];

/**
 * Every field a post answers, in the answer's order: a field the example below leaves out (one added since)
 * shows its value on create (its column's `initial`), else null.
 */
function everyPostField(example: JsonObject): JsonObject {
  const initial = postColumns.read(postColumns.write({}, { create: true })) as JsonObject;
  return Object.fromEntries(
    Object.keys(Post.properties)
      // A field only some reads add (bodyHtml) is left out, as every read's answer leaves it out.
      .filter((field) => (Post.required as readonly string[]).includes(field) || field in example)
      .map((field) => [field, field in example ? example[field] : (initial[field] ?? null)]),
  ) as JsonObject;
}

/** A published post as every read returns it, with its relations embedded. */
export const POST_EXAMPLE: JsonObject = everyPostField({
  id: POST,
  workspaceId: WORKSPACE,
  slug: 'sourdough-starter',
  title: 'A sourdough starter in five days',
  excerpt: 'Flour, water, a jar and a little patience.',
  bodyJson: body,
  bodyText:
    'A starter is flour, water and **patience**.\n\nFeeding the starter\n\nDiscard half\nAdd 50 g flour and 50 g water\nWait until it doubles',
  tocItems: [{ level: 2, text: 'Feeding the starter', id: 'feeding-the-starter' }],
  readingTimeMin: 1,
  featuredMediaId: MEDIA,
  featuredMedia: media,
  authorId: AUTHOR,
  author,
  categoryId: CATEGORY,
  category,
  status: 'published',
  publishedAt: UPDATED,
  scheduledAt: null,
  isHowTo: false,
  summaryForAi: null,
  canonicalUrl: null,
  viewCount: 0,
  seo: {
    title: 'Sourdough starter in five days',
    description: 'Make a sourdough starter with flour, water and a jar.',
    focusKeyword: 'sourdough starter',
  },
  schemaType: 'BlogPosting',
  structuredData: null,
  structuredBlocks: [],
  seoScore: 78,
  readabilityScore: 71,
  jsonLd: {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'BlogPosting',
        headline: 'A sourdough starter in five days',
        url: `${SITE}/blog/sourdough-starter`,
        datePublished: UPDATED,
        dateModified: UPDATED,
        wordCount: 19,
        author: { '@type': 'Person', name: 'Ada Baker' },
        image: media.url,
        articleSection: 'Bread',
        keywords: 'baking',
      },
    ],
  },
  deletedAt: null,
  createdAt: CREATED,
  updatedAt: UPDATED,
  tags: [{ id: TAG, workspaceId: WORKSPACE, slug: 'baking', name: 'Baking', seo: null, createdAt: CREATED }],
  relatedPosts: [],
});

interface Example {
  summary: string;
  value: Json;
}

/** Request body examples by operationId. */
export const REQUEST_EXAMPLES: Record<string, Record<string, Example>> = {
  createPost: {
    draft: {
      summary: 'A draft with a body',
      value: {
        title: 'A sourdough starter in five days',
        excerpt: 'Flour, water, a jar and a little patience.',
        bodyJson: body.map(({ url: _url, ...block }) => block),
      },
    },
    published: {
      summary: 'Published at once, with relations',
      value: {
        title: 'Proofing baskets compared',
        slug: 'proofing-baskets',
        status: 'published',
        authorId: AUTHOR,
        categoryId: CATEGORY,
        featuredMediaId: MEDIA,
      },
    },
  },
  updatePost: {
    publish: { summary: 'Publish a draft', value: { status: 'published' } },
    edit: {
      summary: 'Edit the title and the SEO fields',
      value: {
        title: 'A sourdough starter in five days (updated)',
        seo: { title: 'Sourdough starter', description: 'Five days, two ingredients.' },
      },
    },
  },
  attachPostTags: {
    tags: { summary: 'Attach two tags', value: { tagIds: [TAG, 'f9e8d7c6-b5a4-4392-8170-6f5e4d3c2b1a'] } },
  },
  detachPostTags: { tags: { summary: 'Detach one tag', value: { tagIds: [TAG] } } },
  createPage: {
    about: {
      summary: 'An About page',
      value: {
        title: 'About us',
        pageType: 'AboutPage',
        status: 'published',
        bodyJson: [{ type: 'paragraph', text: 'We bake.' }],
      },
    },
  },
  updatePage: { unpublish: { summary: 'Back to draft', value: { status: 'draft' } } },
  createAuthor: {
    author: {
      summary: 'An author',
      value: { displayName: 'Ada Baker', bio: 'Bakes every morning.', sameAs: ['https://social.example/@ada'] },
    },
  },
  updateAuthor: { deactivate: { summary: 'Deactivate', value: { isActive: false } } },
  createCategory: { child: { summary: 'A child category', value: { name: 'Rye', parentId: CATEGORY } } },
  updateCategory: { order: { summary: 'Reorder', value: { sortOrder: 2 } } },
  createTag: { tag: { summary: 'A tag', value: { name: 'Baking' } } },
  updateTag: { rename: { summary: 'Rename', value: { name: 'Home baking' } } },
  createRedirect: {
    moved: {
      summary: 'A moved post',
      value: { fromPath: '/blog/old-starter', toPath: '/blog/sourdough-starter', statusCode: 301 },
    },
  },
  updateRedirect: { temporary: { summary: 'Make it temporary', value: { statusCode: 302 } } },
  reportLinkHealth: {
    broken: {
      summary: 'A 404 seen by the site',
      value: { path: '/blog/missing-post', referrer: 'https://news.example/item/1', statusCode: 404 },
    },
  },
  createApiKey: {
    build: {
      summary: 'A key for the site build',
      value: { name: 'Site build', expiresAt: '2026-12-31T23:59:59.000Z' },
    },
  },
  updateApiKey: {
    rename: { summary: 'Rename and clear the expiry', value: { name: 'Site build (prod)', expiresAt: null } },
  },
  updateMedia: { alt: { summary: 'Set the alt text', value: { alt: 'A sourdough loaf on a board' } } },
};

/** The operations that answer one post, and so show the Post example. */
export const POST_RESPONSE_OPERATIONS = [
  'getPost',
  'createPost',
  'updatePost',
  'deletePost',
  'attachPostTags',
  'detachPostTags',
];

/** Error bodies as the API sends them, by status. */
export const ERROR_EXAMPLES: Record<string, Json> = {
  400: {
    code: 'BAD_REQUEST',
    message: 'title is required',
    details: { issues: [{ in: 'body', path: '/title', message: 'title is required' }] },
  },
  401: { code: 'UNAUTHORIZED', message: 'A valid API key is required in the X-API-Key header', details: null },
  403: { code: 'FORBIDDEN', message: "This key's creator lacks the posts:write permission", details: null },
  404: { code: 'NOT_FOUND', message: 'Post not found', details: null },
  409: {
    code: 'CONFLICT',
    message: 'The slug "sourdough-starter" is taken by another post',
    details: { field: 'slug', slug: 'sourdough-starter' },
  },
  429: {
    code: 'RATE_LIMITED',
    message: 'Too many requests; retry after the time in Retry-After',
    details: { retryAfterSeconds: 12 },
  },
  500: { code: 'INTERNAL', message: 'Internal server error; retry with backoff', details: null },
  503: {
    code: 'UNAVAILABLE',
    message: 'The database is not answering; retry after the time in Retry-After',
    details: { dependency: 'database', reason: 'shutting_down', retryAfterSeconds: 5 },
  },
};
