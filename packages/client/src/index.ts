export { Quire, type Listing, type UploadOptions, type VersionedUpdateOptions } from './client.js';
export {
  QuireContent,
  type ContentChangesPage,
  type ContentItemOf,
  type ContentListing,
  type ContentListQuery,
  type ContentOperationId,
  type ContentQueryOf,
  type ContentRead,
  type ContentReadOptions,
  type ContentResultOf,
  type PublicMedia,
  type QuireContentOptions,
} from './content.js';
export { QuireError, type QuireErrorCode } from './errors.js';
export type { ClientOptions, QuireOptions, RequestOptions } from './transport.js';
export type { EtagCacheOptions } from './etag-cache.js';
export type * from './types.js';
export type { components, operations, paths } from './schema.js';
export type {
  components as contentComponents,
  operations as contentOperations,
  paths as contentPaths,
} from './content-schema.js';
