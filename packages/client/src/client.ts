import { API_PREFIX, Transport, type Call, type Query, type QuireOptions, type RequestOptions } from './transport.js';
import type { BodyOf, FieldsOf, ItemOf, OperationId, QueryOf, ResultOf, Selected, SelectedPage } from './types.js';

export const segment = (value: string) => `/${encodeURIComponent(value)}`;

/** The largest page the API serves: an iteration walks the fewest pages with it. */
const ITERATION_PAGE_SIZE = 100;

type ListOperation = { [Op in OperationId]: ItemOf<Op> extends never ? never : Op }[OperationId];

/** A list's query, with `fields` as an array of the item's field names. */
export type ListQuery<Op extends ListOperation, Fields> = Omit<QueryOf<Op>, 'fields'> & { fields?: Fields };

/** The query as the API takes it: `fields` joined with commas. */
function wire(query: { fields?: readonly string[] } | undefined): Query | undefined {
  if (query?.fields === undefined) return query as Query | undefined;
  return { ...(query as Query), fields: query.fields.join(',') };
}

export interface Listing<Op extends ListOperation> {
  /**
   * One page: `{data, page, pageSize, order, orderBy?, total, totalPages}`. With `fields`, each item holds
   * those fields and `id` only, and its type says so.
   */
  list<const Fields extends FieldsOf<ItemOf<Op>> | undefined = undefined>(
    query?: ListQuery<Op, Fields>,
    options?: RequestOptions,
  ): Promise<SelectedPage<ResultOf<Op>, ItemOf<Op>, Fields>>;
  /**
   * Every item of every page, fetched page by page as the loop asks for more (100 per page unless
   * `pageSize` says otherwise). Rows written during the walk can shift pages; pass an `orderBy`
   * that new rows sort after (e.g. `createdAt` with `order: 'asc'`) for a walk that sees each row once.
   */
  iterate<const Fields extends FieldsOf<ItemOf<Op>> | undefined = undefined>(
    query?: ListQuery<Op, Fields>,
    options?: RequestOptions,
  ): AsyncGenerator<Selected<ItemOf<Op>, Fields>, void, undefined>;
}

/** `list` and `iterate` of a list at `path`, untyped: each client types them from its own document. */
export function pages(transport: Transport, path: string) {
  const list = (query?: { fields?: readonly string[] }, options?: RequestOptions) =>
    transport.request<{ data: unknown[]; totalPages: number }>({ method: 'GET', path, query: wire(query), options });
  async function* iterate(query?: { fields?: readonly string[] }, options?: RequestOptions) {
    const base: { page?: unknown; pageSize?: unknown; fields?: readonly string[] } = {
      pageSize: ITERATION_PAGE_SIZE,
      ...query,
    };
    for (let page = Number(base.page ?? 1); ; page += 1) {
      const result = await list({ ...base, page } as { fields?: readonly string[] }, options);
      yield* result.data;
      if (page >= result.totalPages || result.data.length === 0) return;
    }
  }
  return { list, iterate };
}

function listing<Op extends ListOperation>(transport: Transport, path: string): Listing<Op> {
  return pages(transport, path) as unknown as Listing<Op>;
}

/** A single read's options: the request's, and `fields` as for a list. */
export type ReadOptions<Fields> = RequestOptions & { fields?: Fields };

/** get, create, update and delete of one resource addressed by id (or slug, where it has one). */
function crud<
  Get extends OperationId,
  Create extends OperationId,
  Update extends OperationId,
  Delete extends OperationId,
>(transport: Transport, path: string) {
  const call = <T>(request: Call) => transport.request<T>(request);
  return {
    get: <const Fields extends FieldsOf<ResultOf<Get>> | undefined = undefined>(
      idOrSlug: string,
      options?: ReadOptions<Fields>,
    ) =>
      call<Selected<ResultOf<Get>, Fields>>({
        method: 'GET',
        path: path + segment(idOrSlug),
        query: options?.fields ? { fields: options.fields.join(',') } : undefined,
        options,
      }),
    create: (body: BodyOf<Create>, options?: RequestOptions) =>
      call<ResultOf<Create>>({ method: 'POST', path, json: body, options }),
    update: (idOrSlug: string, body: BodyOf<Update>, options?: RequestOptions) =>
      call<ResultOf<Update>>({ method: 'PATCH', path: path + segment(idOrSlug), json: body, options }),
    delete: (idOrSlug: string, options?: RequestOptions) =>
      call<ResultOf<Delete>>({ method: 'DELETE', path: path + segment(idOrSlug), options }),
  };
}

/** An update's options where the resource has a version: what `If-Match` names, if anything. */
export type VersionedUpdateOptions = RequestOptions & {
  /**
   * The copy being edited: its `updatedAt` (sent in quotes), or the `ETag` a GET of it answered (sent as it is,
   * quotes included).
   */
  ifMatch?: string;
  /**
   * `true`: send the ETag of the copy this client last read with `get(idOrSlug)`, the same `idOrSlug` and no
   * `fields`, from its ETag cache. Refused before anything is sent when the cache holds no such copy.
   */
  ifMatchRead?: boolean;
};

/** The If-Match header `options` ask for: an ETag as it is, an `updatedAt` in quotes, the copy read, or none. */
function ifMatchHeader(
  transport: Transport,
  path: string,
  options: VersionedUpdateOptions | undefined,
): Record<string, string> | undefined {
  if (options?.ifMatchRead === true) {
    if (options.ifMatch !== undefined) throw new TypeError('Quire: pass ifMatch or ifMatchRead, not both');
    const etag = transport.heldEtag(path);
    if (etag === undefined)
      throw new TypeError(`Quire: ifMatchRead, but no copy of ${path} read with get() is held (or the cache is off)`);
    return { 'If-Match': etag };
  }
  if (options?.ifMatch === undefined) return undefined;
  const tag = options.ifMatch;
  return { 'If-Match': tag.startsWith('"') || tag.startsWith('W/') ? tag : `"${tag}"` };
}

/**
 * The update of a post or page, refused with a 409 CONFLICT (`details.reason` "stale") when `ifMatch` or
 * `ifMatchRead` is given and the copy it names is no longer current: two editors never silently overwrite each
 * other.
 */
function versionedUpdate<Update extends OperationId>(transport: Transport, path: string) {
  return {
    update: async (idOrSlug: string, body: BodyOf<Update>, options?: VersionedUpdateOptions) =>
      transport.request<ResultOf<Update>>({
        method: 'PATCH',
        path: path + segment(idOrSlug),
        json: body,
        headers: ifMatchHeader(transport, path + segment(idOrSlug), options),
        options,
      }),
  };
}

/** The revisions of one post or page: list them (newest first), read one with its fields, restore one. */
function revisionsOf<List extends ListOperation, Get extends OperationId, Restore extends OperationId>(
  transport: Transport,
  path: string,
) {
  const base = (idOrSlug: string) => `${path}${segment(idOrSlug)}/revisions`;
  return {
    list: (idOrSlug: string, query?: Omit<QueryOf<List>, 'fields'>, options?: RequestOptions) =>
      transport.request<ResultOf<List>>({ method: 'GET', path: base(idOrSlug), query: query as Query, options }),
    get: (idOrSlug: string, n: number, options?: RequestOptions) =>
      transport.request<ResultOf<Get>>({ method: 'GET', path: `${base(idOrSlug)}/${n}`, options }),
    /** A new write of revision `n`'s fields (not its status); not retried on a 5xx, as a PATCH is not. */
    restore: (idOrSlug: string, n: number, options?: RequestOptions) =>
      transport.request<ResultOf<Restore>>({ method: 'POST', path: `${base(idOrSlug)}/${n}/restore`, options }),
  };
}

/** Names the pending set a write was based on: its `updatedAt` (If-Match), or that there was none. */
export interface PendingWriteOptions extends RequestOptions {
  /** The set's `updatedAt` as read: another writer's save since is a 409 "pending_changed". */
  ifMatch?: string;
  /** There was no set when read: a set saved since by another writer is a 409 "pending_changed". */
  ifNoneExists?: boolean;
}

function pendingHeaders(options: PendingWriteOptions | undefined): Record<string, string> | undefined {
  if (options?.ifMatch !== undefined && options.ifNoneExists) throw new TypeError('Quire: ifMatch or ifNoneExists');
  if (options?.ifMatch !== undefined) return { 'If-Match': `"${options.ifMatch}"` };
  if (options?.ifNoneExists) return { 'If-None-Match': '*' };
  return undefined;
}

/**
 * The pending changes of a live post or page (docs/publishing.md): edits kept from the live version until `apply`
 * (Update) writes them as one write. None of the writes is retried on a 5xx, as a PATCH is not.
 */
function pendingOf<
  Get extends OperationId,
  Save extends OperationId,
  Discard extends OperationId,
  Apply extends OperationId,
>(transport: Transport, path: string) {
  const base = (idOrSlug: string) => `${path}${segment(idOrSlug)}/pending`;
  return {
    get: (idOrSlug: string, options?: RequestOptions) =>
      transport.request<ResultOf<Get>>({ method: 'GET', path: base(idOrSlug), options }),
    save: (idOrSlug: string, body: BodyOf<Save>, options?: PendingWriteOptions) =>
      transport.request<ResultOf<Save>>({
        method: 'PUT',
        path: base(idOrSlug),
        json: body,
        headers: pendingHeaders(options),
        options,
      }),
    discard: (idOrSlug: string, options?: PendingWriteOptions) =>
      transport.request<ResultOf<Discard>>({
        method: 'DELETE',
        path: base(idOrSlug),
        headers: pendingHeaders(options),
        // A retry after a discard that happened would be refused (gone, or another version): the caller decides.
        idempotent: false,
        options,
      }),
    apply: (idOrSlug: string, body: BodyOf<Apply> = {} as BodyOf<Apply>, options?: PendingWriteOptions) =>
      transport.request<ResultOf<Apply>>({
        method: 'POST',
        path: `${base(idOrSlug)}/apply`,
        json: body,
        headers: pendingHeaders(options),
        options,
      }),
  };
}

/**
 * The review links of one post or page (docs/publishing.md, "Review links"): read-only links to its draft, or its
 * pending changes, for someone without an account, until they expire or are withdrawn.
 */
function reviewLinksOf<List extends OperationId, Create extends OperationId, Revoke extends OperationId>(
  transport: Transport,
  path: string,
) {
  const base = (idOrSlug: string) => `${path}${segment(idOrSlug)}/review-links`;
  return {
    list: (idOrSlug: string, options?: RequestOptions) =>
      transport.request<ResultOf<List>>({ method: 'GET', path: base(idOrSlug), options }),
    // Every field has a default (a week, no note), which the generated type reads as required.
    create: (idOrSlug: string, body: Partial<BodyOf<Create>> = {}, options?: RequestOptions) =>
      transport.request<ResultOf<Create>>({ method: 'POST', path: base(idOrSlug), json: body, options }),
    revoke: (idOrSlug: string, id: string, options?: RequestOptions) =>
      transport.request<ResultOf<Revoke>>({
        method: 'DELETE',
        path: `${base(idOrSlug)}${segment(id)}`,
        // Withdrawn once, a second try finds no link: the caller decides.
        idempotent: false,
        options,
      }),
  };
}

export interface UploadOptions extends RequestOptions {
  /** The file name to send; the server keeps a cleaned-up form of it. Default: the File's name, else `upload`. */
  filename?: string;
  alt?: string;
  caption?: string;
}

/**
 * Quire's external API, one method per operation, typed from the server's OpenAPI document. Every
 * method returns the API's JSON as is and throws a QuireError for anything else.
 */
export class Quire {
  readonly posts;
  readonly pages;
  readonly media;
  readonly authors;
  readonly categories;
  readonly tags;
  readonly redirects;
  readonly linkHealth;
  readonly apiKeys;
  readonly siteSettings;
  readonly changes;
  readonly webhooks;
  private readonly transport: Transport;

  constructor(options: QuireOptions) {
    if (!options.apiKey) throw new TypeError('Quire: apiKey is required');
    const transport = new Transport(options, { prefix: API_PREFIX, headers: { 'X-API-Key': options.apiKey } });
    this.transport = transport;
    const tagIds = (method: 'POST' | 'DELETE', idOrSlug: string, ids: string[], options?: RequestOptions) =>
      // Attaching or detaching the same tags twice changes nothing (the specification says so): safe to retry.
      transport.request<ResultOf<'attachPostTags'>>({
        method,
        path: `/posts${segment(idOrSlug)}/tags`,
        json: { tagIds: ids },
        idempotent: true,
        options,
      });

    this.posts = {
      ...listing<'listPosts'>(transport, '/posts'),
      ...crud<'getPost', 'createPost', 'updatePost', 'deletePost'>(transport, '/posts'),
      ...versionedUpdate<'updatePost'>(transport, '/posts'),
      attachTags: (idOrSlug: string, ids: string[], options?: RequestOptions) => tagIds('POST', idOrSlug, ids, options),
      detachTags: (idOrSlug: string, ids: string[], options?: RequestOptions) =>
        tagIds('DELETE', idOrSlug, ids, options),
      revisions: revisionsOf<'listPostRevisions', 'getPostRevision', 'restorePostRevision'>(transport, '/posts'),
      pending: pendingOf<'getPostPending', 'savePostPending', 'discardPostPending', 'applyPostPending'>(
        transport,
        '/posts',
      ),
      reviewLinks: reviewLinksOf<'listPostReviewLinks', 'createPostReviewLink', 'revokePostReviewLink'>(
        transport,
        '/posts',
      ),
    };
    this.pages = {
      ...listing<'listPages'>(transport, '/pages'),
      ...crud<'getPage', 'createPage', 'updatePage', 'deletePage'>(transport, '/pages'),
      ...versionedUpdate<'updatePage'>(transport, '/pages'),
      revisions: revisionsOf<'listPageRevisions', 'getPageRevision', 'restorePageRevision'>(transport, '/pages'),
      pending: pendingOf<'getPagePending', 'savePagePending', 'discardPagePending', 'applyPagePending'>(
        transport,
        '/pages',
      ),
      reviewLinks: reviewLinksOf<'listPageReviewLinks', 'createPageReviewLink', 'revokePageReviewLink'>(
        transport,
        '/pages',
      ),
    };
    // Media are created by upload (multipart), not by a JSON create.
    const { create: _create, ...media } = crud<'getMedia', 'uploadMedia', 'updateMedia', 'deleteMedia'>(
      transport,
      '/media',
    );
    this.media = {
      ...listing<'listMedia'>(transport, '/media'),
      ...media,
      upload: (file: Blob | ArrayBuffer | Uint8Array, options: UploadOptions = {}) => {
        const form = new FormData();
        // Text fields first: the server reads the parts in order and can refuse a bad field before the bytes.
        if (options.alt !== undefined) form.append('alt', options.alt);
        if (options.caption !== undefined) form.append('caption', options.caption);
        const blob = file instanceof Blob ? file : new Blob([file as ArrayBuffer]);
        const own = (file as { name?: unknown }).name;
        const name = options.filename ?? (typeof own === 'string' && own !== '' ? own : 'upload');
        form.append('file', blob, name);
        return transport.request<ResultOf<'uploadMedia'>>({ method: 'POST', path: '/media', form, options });
      },
      /** Where a media item is used (posts, pages, authors, the logo): what deleting it would change. */
      usage: (id: string, options?: RequestOptions) =>
        transport.request<ResultOf<'getMediaUsage'>>({
          method: 'GET',
          path: `/media/${encodeURIComponent(id)}/usage`,
          options,
        }),
    };
    this.authors = {
      ...listing<'listAuthors'>(transport, '/authors'),
      ...crud<'getAuthor', 'createAuthor', 'updateAuthor', 'deleteAuthor'>(transport, '/authors'),
    };
    this.categories = {
      ...listing<'listCategories'>(transport, '/categories'),
      ...crud<'getCategory', 'createCategory', 'updateCategory', 'deleteCategory'>(transport, '/categories'),
    };
    this.tags = {
      ...listing<'listTags'>(transport, '/tags'),
      ...crud<'getTag', 'createTag', 'updateTag', 'deleteTag'>(transport, '/tags'),
    };
    this.redirects = {
      ...listing<'listRedirects'>(transport, '/redirects'),
      ...crud<'getRedirect', 'createRedirect', 'updateRedirect', 'deleteRedirect'>(transport, '/redirects'),
      /** The redirect matching `path` and the final target of its chain; a QuireError NOT_FOUND when none matches. */
      resolve: (path: string, options?: RequestOptions) =>
        transport.request<ResultOf<'resolveRedirect'>>({
          method: 'GET',
          path: '/redirects/resolve',
          query: { path },
          options,
        }),
    };
    this.linkHealth = {
      ...listing<'listLinkHealth'>(transport, '/link-health'),
      /** Counts one hit of a broken link; not retried on a 5xx, since a retry could count it twice. */
      report: (body: BodyOf<'reportLinkHealth'>, options?: RequestOptions) =>
        transport.request<ResultOf<'reportLinkHealth'>>({ method: 'POST', path: '/link-health', json: body, options }),
    };
    // Revealing reads, revoking twice is a no-op: both are safe to retry.
    const keyAction = <T>(action: 'reveal' | 'revoke', id: string, options?: RequestOptions) =>
      transport.request<T>({ method: 'POST', path: `/api-keys${segment(id)}/${action}`, idempotent: true, options });
    this.apiKeys = {
      ...listing<'listApiKeys'>(transport, '/api-keys'),
      create: (body: BodyOf<'createApiKey'>, options?: RequestOptions) =>
        transport.request<ResultOf<'createApiKey'>>({ method: 'POST', path: '/api-keys', json: body, options }),
      update: (id: string, body: BodyOf<'updateApiKey'>, options?: RequestOptions) =>
        transport.request<ResultOf<'updateApiKey'>>({
          method: 'PATCH',
          path: `/api-keys${segment(id)}`,
          json: body,
          options,
        }),
      reveal: (id: string, options?: RequestOptions) => keyAction<ResultOf<'revealApiKey'>>('reveal', id, options),
      revoke: (id: string, options?: RequestOptions) => keyAction<ResultOf<'revokeApiKey'>>('revoke', id, options),
    };
    this.changes = {
      /**
       * One answer of the change feed, `{data, next, hasMore}`: the events after `after` in commit order. Keep
       * `next` and ask with it as `after` (at once while `hasMore`); a QuireError BAD_REQUEST with
       * `details.reason: 'cursor_expired'` means the cursor is older than the events kept: read again in full.
       */
      list: (query?: Omit<QueryOf<'listChanges'>, 'fields'>, options?: RequestOptions) =>
        transport.request<ResultOf<'listChanges'>>({ method: 'GET', path: '/changes', query: query as Query, options }),
    };
    const webhookPath = (id: string, tail = '') => `/webhooks${segment(id)}${tail}`;
    this.webhooks = {
      ...listing<'listWebhooks'>(transport, '/webhooks'),
      /** The answer carries the signing `secret`, which no later read shows (but reveal and rotate). */
      create: (body: BodyOf<'createWebhook'>, options?: RequestOptions) =>
        transport.request<ResultOf<'createWebhook'>>({ method: 'POST', path: '/webhooks', json: body, options }),
      get: (id: string, options?: RequestOptions) =>
        transport.request<ResultOf<'getWebhook'>>({ method: 'GET', path: webhookPath(id), options }),
      update: (id: string, body: BodyOf<'updateWebhook'>, options?: RequestOptions) =>
        transport.request<ResultOf<'updateWebhook'>>({ method: 'PATCH', path: webhookPath(id), json: body, options }),
      /** Its pending deliveries are never sent. */
      delete: (id: string, options?: RequestOptions) =>
        transport.request<ResultOf<'deleteWebhook'>>({ method: 'DELETE', path: webhookPath(id), options }),
      // Revealing reads: safe to retry. Rotating twice leaves the second secret: the caller must see the answer.
      revealSecret: (id: string, options?: RequestOptions) =>
        transport.request<ResultOf<'revealWebhookSecret'>>({
          method: 'POST',
          path: webhookPath(id, '/reveal-secret'),
          idempotent: true,
          options,
        }),
      rotateSecret: (id: string, options?: RequestOptions) =>
        transport.request<ResultOf<'rotateWebhookSecret'>>({
          method: 'POST',
          path: webhookPath(id, '/rotate-secret'),
          options,
        }),
      /** Queues a `webhook.test` event to this endpoint alone. */
      sendTest: (id: string, options?: RequestOptions) =>
        transport.request<ResultOf<'sendWebhookTest'>>({ method: 'POST', path: webhookPath(id, '/test'), options }),
      /** The endpoint's deliveries, newest first, each with every attempt. */
      deliveries: (id: string, query?: Omit<QueryOf<'listWebhookDeliveries'>, 'fields'>, options?: RequestOptions) =>
        transport.request<ResultOf<'listWebhookDeliveries'>>({
          method: 'GET',
          path: webhookPath(id, '/deliveries'),
          query: query as Query,
          options,
        }),
      /** The same event (same `webhook-id` and body) queued again as a new delivery. */
      redeliver: (id: string, deliveryId: string, options?: RequestOptions) =>
        transport.request<ResultOf<'redeliverWebhook'>>({
          method: 'POST',
          path: webhookPath(id, `/deliveries${segment(deliveryId)}/redeliver`),
          options,
        }),
    };
    this.siteSettings = {
      /** The site URL, URL patterns, publisher and logo the jsonLd is built from (needs `site-settings:read`). */
      get: (options?: RequestOptions) =>
        transport.request<ResultOf<'getSiteSettings'>>({ method: 'GET', path: '/site-settings', options }),
    };
  }

  /** The server's OpenAPI document (any valid key may read it). */
  openApiDocument(options?: RequestOptions): Promise<ResultOf<'getOpenApiDocument'>> {
    return this.transport.request({ method: 'GET', path: '/openapi.json', options });
  }
}

export type { QuireOptions, RequestOptions };
