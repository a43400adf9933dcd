/**
 * The name and summary of every external operation, keyed by method and route. Generated clients name
 * their methods after `operationId`, so these are part of the contract: they live here, written once,
 * rather than derived from paths (a renamed path must not rename a client method). The document
 * generator refuses a route missing from this table.
 */
export interface OperationInfo {
  operationId: string;
  summary: string;
  description?: string;
  /** The operation can answer 409 CONFLICT (taken slug, duplicate fromPath, delete blocked by references). */
  conflict?: true;
  /** The operation can answer 404 although it has no path parameter (a lookup by query). */
  notFound?: true;
  /** The operation can answer 403 although no one permission guards it (it filters by several). */
  forbidden?: true;
}

const SOFT_DELETE =
  'Soft delete: the answer is the pre-delete snapshot with `deletedAt` set; the slug is freed and the row is hidden from every later read.';
const SLUG_CONFLICT = 'An explicit `slug` already taken by a live row is a 409.';
const REVISIONS =
  'Every create and update keeps a revision (numbered 1, 2, 3 …; tag changes and deletions keep none); the newest 50 are kept unless the server says otherwise.';
const RESTORE =
  'A new write of the revision’s fields but `status` and `publishedAt`, checked as a PATCH is: a slug taken since by another row is a 409, a reference deleted since a 400 naming the field. It keeps a revision of its own; the answer is the resource as written.';
const NO_SCHEDULING =
  'v1 has no scheduling: a write that leaves the row published with a `publishedAt` later than now is a 400 naming `/publishedAt`.';

const PENDING_READ =
  'The edits of a published resource that are not live yet: nothing else the API, the content API, webhooks, the change feed or revisions answer shows them. A 404 when it has none.';
const PENDING_SAVE =
  'Replaces the whole set (or makes the first). Only a published resource keeps one (else 409, `details.reason` "not_live": edit a draft directly). The changes are checked as the Update that applies them would be, now: a refusal is the PATCH’s 400 with its paths under `/changes`, and nothing is saved. `baseVersion` must be the live `updatedAt` (else 409 "stale"). Nothing is published, no event, webhook or revision is made.';
const PENDING_DISCARD =
  'Drops the set and answers it as it was; the live version is untouched. A 404 when there is none.';
const PENDING_APPLY =
  'Applies the set as one write of the resource, as a PATCH of those fields would (one revision, one `*.updated` event and its webhooks, the derived fields and scores), and deletes the set in the same transaction; `status` moves the status in that write too. When the live version moved past the set’s `baseVersion`, a 409 "stale" with `details.version`, the live one; a field that no longer validates (a tag deleted since) is a 400 naming it under `/changes`. A refusal keeps the set.';

const REVIEW_LINK_CREATE =
  'A link anyone who has it may open, without an account, until it expires (7 days by default, 1 hour to 30 days) or is withdrawn: `url` shows the draft, or a live resource as its pending changes will leave it, on a page of its own that search engines are told not to index. A resource has at most 50 links (else 409, `details.reason` `review_links_max`): withdraw one to make room.';
const REVIEW_LINK_LIST =
  'Newest first, expired ones too (`expired: true`) until withdrawn; each with its `url` again, how often it was opened and when last.';
const REVIEW_LINK_REVOKE =
  'Deletes the link, so its page answers as an expired one does; the answer is the link as it was. A link of another resource is a 404.';

export const OPERATIONS: Record<string, OperationInfo> = {
  'GET /openapi.json': {
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description:
      'Any valid key may read it, whatever its permissions. The same document is public at `/docs/openapi.json`.',
  },

  'GET /posts': {
    operationId: 'listPosts',
    summary: 'List posts',
    description: 'Every status is listed unless `status` filters; soft-deleted posts never are.',
  },
  'POST /posts': {
    operationId: 'createPost',
    summary: 'Create a post',
    description: `Created as draft unless \`status\` says published. ${NO_SCHEDULING} ${SLUG_CONFLICT}`,
    conflict: true,
  },
  'GET /posts/:idOrSlug': {
    operationId: 'getPost',
    summary: 'Get a post by id or slug',
    description: 'With author, category, featured media, tags and related posts embedded.',
  },
  'PATCH /posts/:idOrSlug': {
    operationId: 'updatePost',
    summary: 'Update a post',
    description: `Only the fields sent change; a new \`bodyJson\` re-derives \`bodyText\`, \`tocItems\` and \`readingTimeMin\`. ${NO_SCHEDULING} ${SLUG_CONFLICT}`,
    conflict: true,
  },
  'DELETE /posts/:idOrSlug': { operationId: 'deletePost', summary: 'Delete a post', description: SOFT_DELETE },
  'POST /posts/:idOrSlug/tags': {
    operationId: 'attachPostTags',
    summary: 'Attach tags to a post',
    description: 'Idempotent: tags already attached are skipped. Returns the refreshed post.',
  },
  'DELETE /posts/:idOrSlug/tags': {
    operationId: 'detachPostTags',
    summary: 'Detach tags from a post',
    description: 'Idempotent: tags not attached are skipped. Returns the refreshed post.',
  },

  'GET /pages': { operationId: 'listPages', summary: 'List pages' },
  'POST /pages': {
    operationId: 'createPage',
    summary: 'Create a page',
    description: `${NO_SCHEDULING} ${SLUG_CONFLICT}`,
    conflict: true,
  },
  'GET /pages/:idOrSlug': { operationId: 'getPage', summary: 'Get a page by id or slug' },
  'PATCH /pages/:idOrSlug': {
    operationId: 'updatePage',
    summary: 'Update a page',
    description: `${NO_SCHEDULING} ${SLUG_CONFLICT}`,
    conflict: true,
  },
  'DELETE /pages/:idOrSlug': { operationId: 'deletePage', summary: 'Delete a page', description: SOFT_DELETE },

  'GET /posts/:idOrSlug/revisions': {
    operationId: 'listPostRevisions',
    summary: "List a post's revisions",
    description: `${REVISIONS} Newest first unless \`orderBy=n\` with \`order=asc\`; each without its fields.`,
  },
  'GET /posts/:idOrSlug/revisions/:n': {
    operationId: 'getPostRevision',
    summary: 'Get one revision of a post',
    description:
      'With `fields`: the writable fields as that write left them, a body `PATCH /posts/{idOrSlug}` accepts.',
  },
  'POST /posts/:idOrSlug/revisions/:n/restore': {
    operationId: 'restorePostRevision',
    summary: 'Restore a revision of a post',
    description: RESTORE,
    conflict: true,
  },
  'GET /pages/:idOrSlug/revisions': {
    operationId: 'listPageRevisions',
    summary: "List a page's revisions",
    description: `${REVISIONS} Newest first unless \`orderBy=n\` with \`order=asc\`; each without its fields.`,
  },
  'GET /pages/:idOrSlug/revisions/:n': {
    operationId: 'getPageRevision',
    summary: 'Get one revision of a page',
    description:
      'With `fields`: the writable fields as that write left them, a body `PATCH /pages/{idOrSlug}` accepts.',
  },
  'POST /pages/:idOrSlug/revisions/:n/restore': {
    operationId: 'restorePageRevision',
    summary: 'Restore a revision of a page',
    description: RESTORE,
    conflict: true,
  },

  'GET /media': { operationId: 'listMedia', summary: 'List media' },
  'POST /media': {
    operationId: 'uploadMedia',
    summary: 'Upload a file',
    description:
      'multipart/form-data with one file part named `file` and the optional text fields `alt` and `caption`. The type is sniffed from the bytes (PNG, JPEG, GIF, WebP, AVIF, SVG, PDF, MP4); anything else is a 400 with `details.reason: unsupported_type`.',
  },
  'GET /media/:id': { operationId: 'getMedia', summary: 'Get a media item' },
  'GET /media/:id/usage': {
    operationId: 'getMediaUsage',
    summary: 'Where a media item is used',
    description:
      'Posts and pages showing it, authors whose avatar it is, and whether it is the logo: what deleting it changes.',
  },
  'PATCH /media/:id': {
    operationId: 'updateMedia',
    summary: 'Update the alt text, caption or focal point of a media item',
  },
  'DELETE /media/:id': {
    operationId: 'deleteMedia',
    summary: 'Delete a media item',
    description:
      'Blocks that pointed at it keep their `mediaId` and read `url: null`; featured images and avatars let go of it.',
  },

  'GET /authors': { operationId: 'listAuthors', summary: 'List authors' },
  'POST /authors': {
    operationId: 'createAuthor',
    summary: 'Create an author',
    description: SLUG_CONFLICT,
    conflict: true,
  },
  'GET /authors/:idOrSlug': { operationId: 'getAuthor', summary: 'Get an author by id or slug' },
  'PATCH /authors/:idOrSlug': {
    operationId: 'updateAuthor',
    summary: 'Update an author',
    description: SLUG_CONFLICT,
    conflict: true,
  },
  'DELETE /authors/:idOrSlug': {
    operationId: 'deleteAuthor',
    summary: 'Delete an author',
    description: 'A 409 while the author is attached to a live post.',
    conflict: true,
  },

  'GET /categories': { operationId: 'listCategories', summary: 'List categories' },
  'POST /categories': {
    operationId: 'createCategory',
    summary: 'Create a category',
    description: SLUG_CONFLICT,
    conflict: true,
  },
  'GET /categories/:idOrSlug': { operationId: 'getCategory', summary: 'Get a category by id or slug' },
  'PATCH /categories/:idOrSlug': {
    operationId: 'updateCategory',
    summary: 'Update a category',
    description: SLUG_CONFLICT,
    conflict: true,
  },
  'DELETE /categories/:idOrSlug': {
    operationId: 'deleteCategory',
    summary: 'Delete a category',
    description: 'A 409 while the category has children or live posts.',
    conflict: true,
  },

  'GET /tags': { operationId: 'listTags', summary: 'List tags' },
  'POST /tags': { operationId: 'createTag', summary: 'Create a tag', description: SLUG_CONFLICT, conflict: true },
  'GET /tags/:idOrSlug': { operationId: 'getTag', summary: 'Get a tag by id or slug' },
  'PATCH /tags/:idOrSlug': {
    operationId: 'updateTag',
    summary: 'Update a tag',
    description: SLUG_CONFLICT,
    conflict: true,
  },
  'DELETE /tags/:idOrSlug': {
    operationId: 'deleteTag',
    summary: 'Delete a tag',
    description: 'Detaches it from every post.',
  },

  'GET /redirects': { operationId: 'listRedirects', summary: 'List redirects' },
  'POST /redirects': {
    operationId: 'createRedirect',
    summary: 'Create a redirect',
    description:
      'A duplicate `fromPath` is a 409; `fromPath` equal to `toPath`, or a write that would close a loop, is a 400.',
    conflict: true,
  },
  'GET /redirects/resolve': {
    operationId: 'resolveRedirect',
    summary: 'Resolve a path',
    description: 'The redirect matching `path`, with the final target of its chain; 404 when none matches.',
    notFound: true,
  },
  'GET /redirects/:id': { operationId: 'getRedirect', summary: 'Get a redirect' },
  'PATCH /redirects/:id': { operationId: 'updateRedirect', summary: 'Update a redirect', conflict: true },
  'DELETE /redirects/:id': { operationId: 'deleteRedirect', summary: 'Delete a redirect' },

  'GET /link-health': {
    operationId: 'listLinkHealth',
    summary: 'List broken-link reports',
    description: 'Most hits first unless `orderBy` says otherwise.',
  },
  'POST /link-health': {
    operationId: 'reportLinkHealth',
    summary: 'Report a broken link',
    description:
      'Upserts the record of (workspace, path) and increments `hitCount`; repeat reports are safe. Always 200.',
  },

  'GET /changes': {
    operationId: 'listChanges',
    summary: 'Follow what changed',
    description:
      'The workspace’s content events in commit order: `{data, next, hasMore}`, each event `{seq, event, type, id, slug, action, timestamp}` (`event` is `post.published`, `tag.deleted` …; deletions included, with the slug the resource had). Ask again with `after` set to `next`: a reader that follows it never misses an event, whatever order concurrent writes committed in. Without `after` the feed starts at its oldest kept event (events are kept 30 days by default); a cursor older than that, from another workspace or malformed is a 400 naming `/after` (`details.reason: cursor_expired` for the first: read the content again in full, then follow the feed from its start). `limit` is 1–1000, 100 by default. Each event is shown to a key that may read its resource (`posts:read` for posts, `site-settings:read` for the site settings …); a key that may read none is a 403.',
    forbidden: true,
  },
  'GET /site-settings': {
    operationId: 'getSiteSettings',
    summary: 'Get the site settings',
    description:
      'The site URL, URL patterns, publisher and logo that `jsonLd` is built from, so a site can build the same URLs. The workspace owner edits them in the dashboard.',
  },

  'GET /api-keys': {
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description: '`isActive=true` lists Active keys, `false` Expired and Revoked ones.',
  },
  'POST /api-keys': {
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description: 'The plaintext `key` is in this response only (and in a later reveal).',
  },
  'PATCH /api-keys/:id': {
    operationId: 'updateApiKey',
    summary: 'Rename an API key or change its expiry',
    description: '`expiresAt: null` clears the expiry.',
  },
  'POST /api-keys/:id/reveal': {
    operationId: 'revealApiKey',
    summary: 'Reveal the plaintext of an Active key',
    description: 'An Expired or Revoked key is a 400.',
  },
  'POST /api-keys/:id/revoke': {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description: 'Idempotent; the key gets 401 from the next request on.',
  },

  'GET /content-keys': {
    operationId: 'listContentKeys',
    summary: 'List content keys',
    description:
      'Read-only keys for sites and browsers, used on the content API (`/api/v1/content`). `isActive=false` lists revoked ones.',
  },
  'POST /content-keys': {
    operationId: 'createContentKey',
    summary: 'Create a content key',
    description:
      'A content key reads published posts and pages and the public parts of what they embed, and nothing else; `allowedOrigins` limits which browser origins get CORS headers (none: any).',
  },
  'GET /content-keys/:id': { operationId: 'getContentKey', summary: 'Get a content key' },
  'PATCH /content-keys/:id': {
    operationId: 'updateContentKey',
    summary: 'Rename a content key or change its allowed origins',
  },
  'POST /content-keys/:id/revoke': {
    operationId: 'revokeContentKey',
    summary: 'Revoke a content key',
    description: 'Idempotent; the key gets 401 from its next request on.',
  },
  'POST /posts/:idOrSlug/preview': {
    operationId: 'createPostPreview',
    summary: 'Make a preview token for a post',
    description:
      'A signed token that lets the content API read this one post, whatever its status, until it expires (an hour by default). `url` is the site settings’ preview URL pattern filled in.',
  },
  'POST /pages/:idOrSlug/preview': {
    operationId: 'createPagePreview',
    summary: 'Make a preview token for a page',
    description: 'As for a post: a signed token that lets the content API read this one page until it expires.',
  },

  'GET /posts/:idOrSlug/pending': {
    operationId: 'getPostPending',
    summary: 'Get the pending changes of a live post',
    description: PENDING_READ,
  },
  'PUT /posts/:idOrSlug/pending': {
    operationId: 'savePostPending',
    summary: 'Save the pending changes of a live post',
    description: PENDING_SAVE,
    conflict: true,
  },
  'DELETE /posts/:idOrSlug/pending': {
    operationId: 'discardPostPending',
    summary: 'Discard the pending changes of a post',
    description: PENDING_DISCARD,
    conflict: true,
  },
  'POST /posts/:idOrSlug/pending/apply': {
    operationId: 'applyPostPending',
    summary: 'Update: apply the pending changes of a post',
    description: PENDING_APPLY,
    conflict: true,
  },
  'GET /pages/:idOrSlug/pending': {
    operationId: 'getPagePending',
    summary: 'Get the pending changes of a live page',
    description: PENDING_READ,
  },
  'PUT /pages/:idOrSlug/pending': {
    operationId: 'savePagePending',
    summary: 'Save the pending changes of a live page',
    description: PENDING_SAVE,
    conflict: true,
  },
  'DELETE /pages/:idOrSlug/pending': {
    operationId: 'discardPagePending',
    summary: 'Discard the pending changes of a page',
    description: PENDING_DISCARD,
    conflict: true,
  },
  'POST /pages/:idOrSlug/pending/apply': {
    operationId: 'applyPagePending',
    summary: 'Update: apply the pending changes of a page',
    description: PENDING_APPLY,
    conflict: true,
  },

  'POST /posts/:idOrSlug/review-links': {
    operationId: 'createPostReviewLink',
    summary: 'Make a review link for a post',
    description: REVIEW_LINK_CREATE,
    conflict: true,
  },
  'GET /posts/:idOrSlug/review-links': {
    operationId: 'listPostReviewLinks',
    summary: 'List the review links of a post',
    description: REVIEW_LINK_LIST,
  },
  'DELETE /posts/:idOrSlug/review-links/:id': {
    operationId: 'revokePostReviewLink',
    summary: 'Withdraw a review link of a post',
    description: REVIEW_LINK_REVOKE,
  },
  'POST /pages/:idOrSlug/review-links': {
    operationId: 'createPageReviewLink',
    summary: 'Make a review link for a page',
    description: REVIEW_LINK_CREATE,
    conflict: true,
  },
  'GET /pages/:idOrSlug/review-links': {
    operationId: 'listPageReviewLinks',
    summary: 'List the review links of a page',
    description: REVIEW_LINK_LIST,
  },
  'DELETE /pages/:idOrSlug/review-links/:id': {
    operationId: 'revokePageReviewLink',
    summary: 'Withdraw a review link of a page',
    description: REVIEW_LINK_REVOKE,
  },

  'GET /webhooks': { operationId: 'listWebhooks', summary: 'List webhook endpoints' },
  'POST /webhooks': {
    operationId: 'createWebhook',
    summary: 'Create a webhook endpoint',
    description:
      'The signing `secret` is in this response only (and in a later reveal or rotation). Deliveries follow the Standard Webhooks format: headers `webhook-id`, `webhook-timestamp`, `webhook-signature`; body `{id, type, timestamp, data}`. `url` must be an absolute http(s) URL without credentials; a loopback, private, link-local, multicast or other non-public address (IPv6 forms that carry such an IPv4 address included), or one of the server’s own, is a 400 at `/url` unless the server allows private targets. An event type the key’s creator may not read is a 400 naming it (`/eventTypes/0`; no list needs every read permission): an endpoint is sent only what its user may read, checked again at each sending. A workspace that has as many endpoints as the server allows (QUIRE_WEBHOOK_ENDPOINTS_MAX, 20 by default) gets a 409 with `details.reason` `webhook_endpoints_max`.',
    conflict: true,
  },
  'GET /webhooks/:id': { operationId: 'getWebhook', summary: 'Get a webhook endpoint' },
  'PATCH /webhooks/:id': {
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint',
    description:
      '`enabled: true` re-enables an endpoint that was disabled, by hand or for failing, and clears why. Setting `url` or `eventTypes` makes the key’s creator the endpoint’s user: an event type they may not read is a 400 naming it.',
  },
  'DELETE /webhooks/:id': {
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description: 'Its pending deliveries are never sent; the answer is the endpoint as it was.',
  },
  'POST /webhooks/:id/reveal-secret': { operationId: 'revealWebhookSecret', summary: 'Reveal the signing secret' },
  'POST /webhooks/:id/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret',
    description: 'Every delivery sent from now on, retries included, is signed with the new secret.',
  },
  'POST /webhooks/:id/test': {
    operationId: 'sendWebhookTest',
    summary: 'Send a test event',
    description: 'Queues a `webhook.test` event to this endpoint alone. A disabled endpoint is a 400.',
  },
  'GET /webhooks/:id/deliveries': {
    operationId: 'listWebhookDeliveries',
    summary: 'List an endpoint’s deliveries',
    description:
      'Newest first, each with every attempt (status code, duration, the answer’s first 2 KB, error). A delivery its endpoint’s user could not be sent, for want of the read permission when it fell due, is `failed` with `skippedReason`.',
  },
  'POST /webhooks/:id/deliveries/:deliveryId/redeliver': {
    operationId: 'redeliverWebhook',
    summary: 'Send a delivery again',
    description:
      'Queues the same event (same id and body) as a new delivery, due at once. A disabled endpoint is a 400.',
  },
};
