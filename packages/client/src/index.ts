export { Quire, type Listing, type UploadOptions, type VersionedUpdateOptions } from './client.js';
export { QuireError, type QuireErrorCode } from './errors.js';
export type { QuireOptions, RequestOptions } from './transport.js';
export type { EtagCacheOptions } from './etag-cache.js';
export type * from './types.js';
export type { components, operations, paths } from './schema.js';
