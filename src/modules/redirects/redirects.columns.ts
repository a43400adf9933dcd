import { columnMap, computed, stored } from '../../db/columns.js';
import type { RedirectUpdateBody } from './redirects.schemas.js';

/** Where each writable field of a redirect is kept (db/columns.ts): create, PATCH and the presenter read this. */
export const redirectColumns = columnMap<RedirectUpdateBody>({
  // Normalised, and checked against loops and the other redirects' paths (redirects.service.ts).
  fromPath: computed('from_path'),
  toPath: computed('to_path'),
  statusCode: stored('status_code', { initial: 301 }),
});
