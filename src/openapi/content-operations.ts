/**
 * The name, tag and summary of every content API operation (src/modules/content-api/content-api.routes.ts), keyed
 * by method and route below `/api/v1/content`. The content client's methods and its generated types are named
 * after these operationIds, so they live here, written once; the content document's generator refuses a content
 * route missing from this table, as the external document's does (operations.ts).
 */
export interface ContentOperationInfo {
  operationId: string;
  /** The document's tag: the resource, or `previews`. */
  tag: string;
  summary: string;
  description?: string;
  /** The media types of a 200 that is not JSON (feeds, sitemaps): its body is a document of one of them. */
  produces?: readonly string[];
}

const PUBLISHED_ITEM =
  'Published only: a draft, scheduled, archived or deleted one is a 404, exactly as one that never existed.';
const PUBLISHED_LIST = 'Published only: nothing else is ever listed, and there is no `status` to ask for (a 400).';
const PREVIEW =
  'Whatever its status, with a preview token for this one resource (`token`, made by the admin API or the studio). An expired, tampered or foreign token is the same 404 as an absent resource. Never cached: `Cache-Control: no-store`, no surrogate keys.';

export const CONTENT_OPERATIONS: Record<string, ContentOperationInfo> = {
  'GET /posts': {
    operationId: 'listPosts',
    tag: 'posts',
    summary: 'List published posts',
    description: `${PUBLISHED_LIST} Newest published first unless \`orderBy\` and \`order\` say otherwise.`,
  },
  'GET /posts/:idOrSlug': {
    operationId: 'getPost',
    tag: 'posts',
    summary: 'Get a published post by id or slug',
    description: `With author, category, featured media, tags and related posts embedded. ${PUBLISHED_ITEM}`,
  },
  'GET /pages': {
    operationId: 'listPages',
    tag: 'pages',
    summary: 'List published pages',
    description: PUBLISHED_LIST,
  },
  'GET /pages/:idOrSlug': {
    operationId: 'getPage',
    tag: 'pages',
    summary: 'Get a published page by id or slug',
    description: PUBLISHED_ITEM,
  },
  'GET /authors': { operationId: 'listAuthors', tag: 'authors', summary: 'List authors' },
  'GET /authors/:idOrSlug': { operationId: 'getAuthor', tag: 'authors', summary: 'Get an author by id or slug' },
  'GET /tags': { operationId: 'listTags', tag: 'tags', summary: 'List tags' },
  'GET /tags/:idOrSlug': { operationId: 'getTag', tag: 'tags', summary: 'Get a tag by id or slug' },
  'GET /categories': { operationId: 'listCategories', tag: 'categories', summary: 'List categories' },
  'GET /categories/:idOrSlug': {
    operationId: 'getCategory',
    tag: 'categories',
    summary: 'Get a category by id or slug',
  },
  'GET /media/:id': {
    operationId: 'getMedia',
    tag: 'media',
    summary: 'Get a media file by id',
    description:
      'Where the file is and what it shows (`url`, sizes, `srcset`), without who uploaded it or where it is stored. There is no list: the library of every upload is the admin API’s.',
  },
  'GET /redirects': {
    operationId: 'listRedirects',
    tag: 'redirects',
    summary: 'List redirects',
    description: 'The redirects of the site, for it to apply.',
  },
  'GET /feeds/:format': {
    operationId: 'getFeed',
    tag: 'feeds',
    summary: 'Get a feed of the latest published posts',
    description:
      '`rss.xml` (RSS 2.0 with the full text in `content:encoded`), `atom.xml` (Atom 1.0) or `feed.json` (JSON Feed 1.1): the latest published posts, newest first, 20 unless `limit` says otherwise, narrowed by `categoryId`, `tagId` or `authorId` (an id the workspace does not have is a 404). Links are built from the site settings.',
    produces: ['application/rss+xml', 'application/atom+xml', 'application/feed+json'],
  },
  'GET /sitemap.xml': {
    operationId: 'getSitemapIndex',
    tag: 'feeds',
    summary: 'Get the sitemap index',
    description:
      'One sitemap per 50,000 URLs of each kind (posts, pages, authors, categories) whose URL pattern is set in the site settings; each entry points back here with the same key.',
    produces: ['application/xml'],
  },
  'GET /sitemaps/:name': {
    operationId: 'getSitemap',
    tag: 'feeds',
    summary: 'Get one sitemap',
    description:
      'A part as the index names it (`posts-1.xml` …), with each URL’s `lastmod` and, for posts, the featured image as `image:image`. A part with nothing in it is a 404.',
    produces: ['application/xml'],
  },
  'GET /site-settings': {
    operationId: 'getSiteSettings',
    tag: 'site-settings',
    summary: 'Get the site settings',
    description: 'The site URL, URL patterns, publisher and logo, so a site builds the same URLs as the JSON-LD.',
  },
  'GET /changes': {
    operationId: 'listChanges',
    tag: 'changes',
    summary: 'Follow what changed',
    description:
      'What changed since a site’s last build, in commit order: `{data, next, hasMore, head}`, each event `{seq, event, type, id, slug, action, timestamp}` as on the admin API’s feed. Ask again with `after` set to `next` (at once while `hasMore`): a reader that follows it never misses an event. `head` is the cursor after every event so far: a site that has just read everything asks once with `limit=1` and follows from `head`. Published only: events of media, authors, categories, tags, redirects and the site settings are all shown; a post’s or page’s only while it is published now, or when the event takes it out of publication (`unpublished`, `archived`, `deleted`), and then its `slug` is null unless it is published again. So a draft’s creation and edits are never shown. Without `after` the feed starts at its oldest kept event (30 days by default); a cursor older than that, from another workspace or malformed is a 400 naming `/after` (`details.reason: cursor_expired` for the first: read the content again in full, then follow the feed from its start). `limit` is 1–1000, 100 by default. Never cached: `Cache-Control: no-store`, no surrogate keys.',
  },
  'GET /preview/posts/:id': {
    operationId: 'getPostPreview',
    tag: 'previews',
    summary: 'Preview a post',
    description: PREVIEW,
  },
  'GET /preview/pages/:id': {
    operationId: 'getPagePreview',
    tag: 'previews',
    summary: 'Preview a page',
    description: PREVIEW,
  },
};

export const CONTENT_TAGS = [
  { name: 'posts', description: 'Published blog posts, with what they embed.' },
  { name: 'pages', description: 'Published standalone pages.' },
  { name: 'authors', description: 'Authors of posts, with their schema.org Person data.' },
  { name: 'tags', description: 'Flat tags attached to posts.' },
  { name: 'categories', description: 'A tree of categories; `path` is the ancestor chain of slugs.' },
  { name: 'media', description: 'Media files by id, as anyone may see them.' },
  { name: 'redirects', description: 'Path redirects for the site to apply.' },
  { name: 'site-settings', description: 'The site URL, URL patterns, publisher and logo.' },
  { name: 'previews', description: 'One draft post or page, with a preview token for it.' },
  { name: 'feeds', description: 'RSS, Atom and JSON feeds, and sitemaps, built from the site settings.' },
  { name: 'changes', description: 'What changed since a cursor, for incremental builds.' },
];

/** The prose above the operations: what the content API is, its key, its caching and its CORS. */
export const CONTENT_API_DESCRIPTION = `
The read-only API a site reads Quire with (docs/content-api.md): published content, for sites, static builds and
browsers.

**Published only.** Posts and pages are listed and read only when published; a draft, scheduled, archived or deleted
one is a 404, exactly as one that never existed. Drafts are read only through a preview, with a preview token for
that one post or page. The API has no writes: any other method is a 404 or a 405.

**The content key.** Every request carries a content key (\`quire_content_…\`) as the \`key\` query parameter, never as
a header: a browser's GET then needs no CORS preflight, and a shared cache's key (the URL) tells keys apart. A content
key reads published content and nothing else, and is safe to ship in a site's pages. Checks run in this order: rate
limit (429) → key (401, also for paths that do not exist) → route (404, or 405 with \`Allow\`) → validation (400) →
lookup (404).

**Caching.** Answers carry a strong \`ETag\` (send it back in \`If-None-Match\` for a bodiless 304) and
\`Cache-Control: public, max-age=0, must-revalidate, s-maxage=N, stale-while-revalidate=60, stale-if-error=86400\`: a
browser revalidates each time, a shared cache keeps the answer N seconds between purges. \`Surrogate-Key\` (Varnish,
Fastly; space-separated) and \`Cache-Tag\` (Cloudflare; comma-separated) name what the answer depends on: its
workspace, the resource and what it embeds, or a list's collection. Previews and the change feed are \`no-store\`
and name nothing.

**CORS.** A key without allowed origins answers any origin (\`Access-Control-Allow-Origin: *\`); a key with some
answers those (echoed, with \`Vary: Origin\`) and gives any other origin no CORS headers. A preflight (\`OPTIONS\`) is
answered 204 on every path.

**Errors** are \`{code, message, details}\`, as on the admin API; validation errors carry \`details.issues\` with JSON
Pointer paths. **Lists** answer \`{data, page, pageSize, order, orderBy?, total, totalPages}\`, \`pageSize\` 1–100.

This document is public, without a key, at \`/api/v1/content/openapi.json\`.
`.trim();
