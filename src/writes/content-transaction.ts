import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

declare const openedByContentWrite: unique symbol;

/**
 * The transaction contentWrite opens (its scope's `trx`). The repositories' writes of content tables take this
 * type, not a plain Kysely, so the compiler refuses a content write made anywhere but inside contentWrite, where
 * its events, revisions and webhook deliveries are recorded. Only contentWrite makes one: a lint rule
 * (eslint/content-writes.js) refuses a cast to it elsewhere, and a write of a content table whose executor is
 * not one.
 */
export type ContentTransaction = Kysely<Database> & { readonly [openedByContentWrite]: true };
