/**
 * Every table of an installation, in the order a move copies them: each after the tables its rows
 * reference. `key` orders the reads (keyset pages); `parentsFirst` names a column referencing the same table.
 */
export interface MovedTable {
  name: string;
  key: readonly string[];
  parentsFirst?: string;
}

export const MOVED_TABLES: readonly MovedTable[] = [
  { name: 'users', key: ['id'] },
  { name: 'workspaces', key: ['id'] },
  { name: 'memberships', key: ['workspace_id', 'user_id'] },
  { name: 'api_keys', key: ['id'] },
  { name: 'content_keys', key: ['id'] },
  { name: 'media', key: ['id'] },
  { name: 'media_variants', key: ['workspace_id', 'media_id', 'size', 'format'] },
  { name: 'authors', key: ['id'] },
  { name: 'categories', key: ['id'], parentsFirst: 'parent_id' },
  { name: 'tags', key: ['id'] },
  { name: 'posts', key: ['id'] },
  { name: 'post_tags', key: ['post_id', 'tag_id'] },
  { name: 'related_posts', key: ['post_id', 'related_post_id'] },
  { name: 'post_revisions', key: ['workspace_id', 'resource_id', 'n'] },
  { name: 'pages', key: ['id'] },
  { name: 'page_revisions', key: ['workspace_id', 'resource_id', 'n'] },
  { name: 'pending_changes', key: ['workspace_id', 'resource_type', 'resource_id'] },
  { name: 'review_links', key: ['id'] },
  { name: 'redirects', key: ['id'] },
  { name: 'link_health', key: ['id'] },
  { name: 'content_events', key: ['seq'] },
  { name: 'content_event_horizons', key: ['workspace_id'] },
  { name: 'cdn_purge_cursors', key: ['workspace_id'] },
  { name: 'import_ledger', key: ['workspace_id', 'source', 'item_type', 'source_id'] },
  { name: 'webhook_endpoints', key: ['id'] },
  { name: 'webhook_events', key: ['event_id'] },
  { name: 'webhook_deliveries', key: ['id'] },
  { name: 'webhook_attempts', key: ['delivery_id', 'attempt'] },
  { name: 'sessions', key: ['id'] },
  { name: 'sign_in_attempts', key: ['id'] },
  { name: 'invitations', key: ['id'] },
  { name: 'password_resets', key: ['token_hash'] },
  { name: 'audit_events', key: ['id'] },
  { name: 'totp_factors', key: ['user_id'] },
  { name: 'recovery_codes', key: ['user_id', 'code_hash'] },
  { name: 'sign_in_challenges', key: ['token_hash'] },
  { name: 'oidc_logins', key: ['state_hash'] },
  { name: 'reviews', key: ['id'] },
  { name: 'review_entries', key: ['id'] },
  { name: 'notifications', key: ['id'] },
  { name: 'passkeys', key: ['id'] },
  { name: 'webauthn_challenges', key: ['challenge_hash'] },
];

/**
 * Tables a move leaves behind, and why. Every other table of the schema must be in MOVED_TABLES: a test
 * holds the two lists to the schema, so a table a migration adds has to be placed in one of them.
 */
export const NOT_MOVED: Readonly<Record<string, string>> = {
  post_renders: 'a cache of serialized posts, rebuilt by the first read of each post',
  post_status_counts: 'kept by the target’s triggers as the posts are copied',
  post_tag_counts: 'kept by the target’s triggers as the tags are attached',
  posts_words: 'the word index, built on the target from the copied rows',
  pages_words: 'the word index, built on the target from the copied rows',
  quire_migrations: 'written by the migrations the move runs on the target first',
  quire_migrations_lock: 'the migrator’s own lock',
};
