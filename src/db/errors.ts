import { conflict, invalid, type AppError } from '../errors.js';
import type { DialectHelpers } from './dialects/dialect.js';

/** The request field a unique column holds, where its name differs from the column's camelCase. */
const FIELDS: Record<string, string> = { key_hash: 'key', token_hash: 'token' };

const camelCase = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Where a request names the row each foreign key points at, and what that row is called in a refusal. */
const REFERENCES: Record<string, { path: string; what: string }> = {
  'posts.featured_media_id': { path: '/featuredMediaId', what: 'media' },
  'posts.author_id': { path: '/authorId', what: 'author' },
  'posts.category_id': { path: '/categoryId', what: 'category' },
  'post_tags.tag_id': { path: '/tagIds', what: 'tag' },
  'related_posts.related_post_id': { path: '/relatedPostIds', what: 'live post' },
  'authors.avatar_media_id': { path: '/avatarMediaId', what: 'media' },
  'categories.parent_id': { path: '/parentId', what: 'category' },
};

/**
 * A driver error as the client should see it, on either dialect; undefined when it is not one a client
 * caused. A unique violation is a write that lost a race for a value another write took between our check
 * and our insert: the same 409 the check gives, naming the field (the index's last column: the first is
 * the workspace id on every per-workspace index). A foreign key violation is a write that lost a race to
 * the delete of a row it names: the 400 the reference check gives, naming the field where the driver says
 * which it was; or a delete that lost a race to a write that referenced the row, the 409 of a row in use.
 */
export function translateDriverError(dialect: DialectHelpers, error: unknown): AppError | undefined {
  const unique = dialect.uniqueViolation(error);
  if (unique) {
    const column = unique.columns.filter((name) => name !== 'workspace_id').pop() ?? unique.columns.at(-1) ?? '';
    const field = FIELDS[column] ?? camelCase(column);
    return conflict(`The ${field} was taken by a concurrent write`, { field });
  }
  const foreignKey = dialect.foreignKeyViolation(error);
  if (!foreignKey) return undefined;
  if (!foreignKey.missing) return conflict('The row was referenced by a concurrent write', { reason: 'in_use' });
  const reference = REFERENCES[`${foreignKey.table}.${foreignKey.columns.join(',')}`];
  if (!reference)
    return invalid([{ in: 'body', path: '', message: 'a row this write names was deleted by a concurrent write' }]);
  return invalid([
    { in: 'body', path: reference.path, message: `no ${reference.what} with this id in this workspace` },
  ]);
}

/**
 * A write that lost a race to a concurrent one and may simply run again: a unique value taken meanwhile, or
 * on PostgreSQL a deadlock, a serialization failure (the transaction was rolled back whole) or a row it names
 * deleted between its check and its write (run again, the check finds the row gone and says which field
 * named it). SQLite's writes run one at a time, so a foreign key it refuses is no race.
 */
export function lostRace(dialect: DialectHelpers, error: unknown): boolean {
  if (dialect.uniqueViolation(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return dialect.name === 'postgres' && (code === '40P01' || code === '40001' || code === '23503');
}
