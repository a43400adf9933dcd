import { columnMap, columnSpecs } from '../../db/columns.js';
import { postFields } from './posts.fields.js';
import type { PostUpdateBody } from './posts.schemas.js';

/** Where each writable field of a post is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const postColumns = columnMap<PostUpdateBody>(columnSpecs(postFields));
