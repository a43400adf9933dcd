import { columnMap, columnSpecs } from '../../db/columns.js';
import { pageFields } from './pages.fields.js';
import type { PageUpdateBody } from './pages.schemas.js';

/** Where each writable field of a page is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const pageColumns = columnMap<PageUpdateBody>(columnSpecs(pageFields));
