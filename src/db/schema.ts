import type { Generated, Insertable, Selectable } from 'kysely';

/*
 * Column conventions, identical on both dialects as the application sees them:
 * - ids are UUID strings;
 * - timestamps are ISO 8601 strings in UTC with milliseconds (`2026-01-01T00:00:00.000Z`);
 * - JSON columns hold JSON text (jsonb on PostgreSQL, read back as text so both dialects parse alike);
 * - booleans read as `boolean` on PostgreSQL and 0/1 on SQLite: always pass them through `Boolean()`.
 */
export type Timestamp = string;
export type JsonText = string;
export type DbBool = boolean | 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WorkspacesTable {
  id: string;
  name: string;
  slug: string;
  owner_user_id: string;
  /** Moved by every content event (migration 0011's trigger); read by the authentication query. */
  content_version: Generated<number>;
  /** Moved with content_version by events of anything a post embeds other than posts (post_renders). */
  embeds_version: Generated<number>;
  site_name: string | null;
  site_url: string | null;
  logo_media_id: string | null;
  publisher_name: string | null;
  publisher_url: string | null;
  post_url_pattern: string | null;
  page_url_pattern: string | null;
  author_url_pattern: string | null;
  category_url_pattern: string | null;
  preview_url_pattern: string | null;
  /** Every member must sign in with a second factor to use the workspace (migration 0029). */
  require_second_factor: Generated<DbBool>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  /** JSON array of `<resource>:<read|write>` strings. */
  permissions: JsonText;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  created_by_user_id: string;
  name: string;
  key_prefix: string;
  key_hash: string;
  key_encrypted: string;
  master_key_id: string;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A read-only key for sites and browsers (migration 0023, docs/content-api.md). */
export interface ContentKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  key_prefix: string;
  key_hash: string;
  key_encrypted: string;
  master_key_id: string;
  /** JSON array of origins; empty: any. */
  allowed_origins: string;
  created_by_user_id: string | null;
  revoked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** How far each workspace's content events have been purged from the CDN (migration 0023). */
export interface CdnPurgeCursorsTable {
  workspace_id: string;
  seq: number;
  content_version: number;
  updated_at: Timestamp;
}

export interface MediaTable {
  id: string;
  workspace_id: string;
  storage_path: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  caption: string | null;
  uploaded_by_user_id: string | null;
  uploaded_by_api_key_id: string | null;
  /** Alt, caption and filename, folded with foldForSearch: what `q` searches. */
  search_text: Generated<string>;
  /** A tiny blurred preview as a data URI, made at upload (migration 0015); null before it or for non-images. */
  placeholder: string | null;
  /** `#rrggbb`, the image's dominant colour, made with the placeholder. */
  dominant_color: string | null;
  /** JSON `{x, y}`, fractions of the width and height a crop is centred on (migration 0022); null: the centre. */
  focal_point: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A size of an image made beyond the ladder (media.derivatives.ts), counted against the bound per image. */
export interface MediaVariantsTable {
  workspace_id: string;
  media_id: string;
  /** The URL's size segment, `w480-h320-cover-x750-y500-q70`. */
  size: string;
  format: string;
  created_at: Timestamp;
}

export interface AuthorsTable {
  id: string;
  workspace_id: string;
  slug: string;
  display_name: string;
  bio: string | null;
  credentials: string | null;
  avatar_media_id: string | null;
  same_as: JsonText;
  is_active: DbBool;
  seo: JsonText | null;
  person: JsonText | null;
  /** Display name and slug, folded with foldForSearch: what `q` searches. */
  search_text: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CategoriesTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  description: string | null;
  parent_id: string | null;
  sort_order: number;
  is_active: DbBool;
  seo: JsonText | null;
  collection_metadata: JsonText | null;
  /** Name and slug, folded with foldForSearch: what `q` searches. */
  search_text: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TagsTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  seo: JsonText | null;
  /** Name and slug, folded with foldForSearch: what `q` searches. */
  search_text: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type PostStatus = 'draft' | 'scheduled' | 'published' | 'archived';
export type PageStatus = 'draft' | 'published';

export interface PostsTable {
  id: string;
  workspace_id: string;
  slug: string;
  title: string;
  excerpt: string;
  body_json: JsonText;
  body_text: string;
  /** The words of title and excerpt (search-words.ts searchWords): one half of what `q` searches. */
  search_head: Generated<string>;
  /** The words of the body text, the other half; both are in the word index of migration 0018. */
  search_text: Generated<string>;
  toc_items: JsonText;
  word_count: number;
  reading_time_min: number;
  featured_media_id: string | null;
  author_id: string | null;
  category_id: string | null;
  status: PostStatus;
  published_at: Timestamp | null;
  scheduled_at: Timestamp | null;
  is_how_to: DbBool;
  summary_for_ai: string | null;
  canonical_url: string | null;
  view_count: number;
  seo: JsonText | null;
  schema_type: string;
  structured_data: JsonText | null;
  structured_blocks: JsonText;
  seo_score: number;
  readability_score: number;
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Bumped by every write to the post (post_renders; the posts listing it read it as a related stamp). */
  render_stamp: Generated<number>;
}

/** A post's serialized answer and the labels it was built under (migration 0006). */
export interface PostRendersTable {
  post_id: string;
  workspace_id: string;
  render_stamp: number;
  /** The sum of the render stamps of the posts it listed as related, deleted ones included (migration 0010). */
  related_stamp: number;
  embeds_version: number;
  format: string;
  /** UTF-8 JSON: a Buffer from SQLite (written as bytes, see DialectHelpers.textBytes), a string from PostgreSQL. */
  json: Buffer | string;
  /** The body as HTML (@quire/blocks), made by the first read that asked for it (migration 0023); null before. */
  html: string | null;
  /** `json` deflated as blocks that end on a full flush (shared/gzip-pieces.ts, migration 0033); null before. */
  json_deflated: Buffer | null;
}

export interface PostTagsTable {
  workspace_id: string;
  post_id: string;
  tag_id: string;
  created_at: Timestamp;
}

export interface RelatedPostsTable {
  workspace_id: string;
  post_id: string;
  related_post_id: string;
  position: number;
}

export interface PagesTable {
  id: string;
  workspace_id: string;
  slug: string;
  title: string;
  body_json: JsonText;
  body_text: string;
  /** The words of the title; `search_text` those of the body text (as for posts). */
  search_head: Generated<string>;
  search_text: Generated<string>;
  page_type: string;
  status: PageStatus;
  published_at: Timestamp | null;
  seo: JsonText | null;
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RedirectsTable {
  id: string;
  workspace_id: string;
  from_path: string;
  to_path: string;
  status_code: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface LinkHealthTable {
  id: string;
  workspace_id: string;
  path: string;
  referrer: string | null;
  status_code: number;
  hit_count: number;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

/** A dashboard session; the cookie holds the token, this row only its sha256. */
export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

/** A dashboard sign-in attempt that counts against the throttle; `key` is a sha256 of the account, the
 * (account, address) pair or the address. */
export interface SignInAttemptsTable {
  id: string;
  key: string;
  attempted_at: Timestamp;
}

/** One resource a content write changed (migration 0011, src/writes/content-write.ts). */
export interface ContentEventsTable {
  /** Orders a workspace's events in commit order; assigned by the database. */
  seq: Generated<number>;
  workspace_id: string;
  resource_type: string;
  resource_id: string;
  slug: string | null;
  action: string;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  created_at: Timestamp;
}

/**
 * One revision of a post or page (migrations 0012 and 0026, src/writes/revisions.ts); `post_revisions` and
 * `page_revisions` have these same columns.
 */
export interface RevisionsTable {
  workspace_id: string;
  /** The post's id (post_revisions) or the page's (page_revisions). */
  resource_id: string;
  /** 1, 2, 3 … per post or page. */
  n: number;
  action: string;
  slug: string;
  title: string;
  /** The writable fields as the write left them, as JSON text. */
  fields: string;
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  /** When the latest save it holds was made (a revision a later draft save merged into moves with it). */
  created_at: Timestamp;
  /**
   * When the run of a draft's saves it holds began (migration 0026, writes/revision-windows.ts); null for a
   * revision that is a step of its own, which no later save merges into.
   */
  opened_at: Timestamp | null;
}

/** The highest content event number retention deleted, per workspace (migration 0013). */
export interface ContentEventHorizonsTable {
  workspace_id: string;
  pruned_through: number;
}

/** A workspace's webhook endpoint (migration 0014, src/modules/webhooks). */
export interface WebhookEndpointsTable {
  id: string;
  workspace_id: string;
  url: string;
  description: string;
  /** A JSON array of event types; null subscribes to every type. */
  event_types: JsonText | null;
  /**
   * The user on whose permissions it sends (migration 0021): who created it, or last set its url or event types.
   * Nullable in the table alone; every insert sets it.
   */
  user_id: string;
  enabled: DbBool;
  /** The signing secret, AES-256-GCM under the master key (modules/webhooks/webhook-secret.ts). */
  secret_encrypted: string;
  master_key_id: string;
  disabled_reason: string | null;
  disabled_at: Timestamp | null;
  failing_since: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An event as webhooks send it, kept once however many endpoints it goes to (src/writes/webhook-outbox.ts). */
export interface WebhookEventsTable {
  event_id: string;
  workspace_id: string;
  event_type: string;
  /** The exact body sent and signed. */
  payload: string;
  created_at: Timestamp;
}

/** One event owed to one endpoint: the outbox (src/writes/webhook-outbox.ts) and the dispatcher's queue. */
export interface WebhookDeliveriesTable {
  id: string;
  workspace_id: string;
  endpoint_id: string;
  /** The body sent: webhook_events' row of this id. */
  event_id: string;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  /** When a pending delivery falls due; a claim moves it a lease ahead. */
  next_attempt_at: Timestamp;
  last_status_code: number | null;
  last_error: string | null;
  /** Why it was not sent (its endpoint's user may not read its resource type); null when it was, or may be. */
  skipped_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One attempt to send a delivery, as the receiver answered it (or why it could not). */
export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  workspace_id: string;
  status_code: number | null;
  duration_ms: number;
  /** The answer's first 2 KB. */
  response_excerpt: string | null;
  error: string | null;
  created_at: Timestamp;
}

/** A workspace's live posts in one status, kept by triggers on posts (migration 0019). */
export interface PostStatusCountsTable {
  workspace_id: string;
  status: PostStatus;
  live_count: number;
}

/** A tag's live posts, kept by triggers on post_tags and posts (migration 0020). */
export interface PostTagCountsTable {
  workspace_id: string;
  tag_id: string;
  live_count: number;
}

/** A source item an importer brought in, and what it became (migration 0024, docs/imports.md). */
export interface ImportLedgerTable {
  workspace_id: string;
  source: string;
  item_type: string;
  source_id: string;
  quire_id: string;
  content_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The edits of a live post or page that are not live yet (migration 0025, docs/publishing.md). */
export interface PendingChangesTable {
  workspace_id: string;
  resource_type: 'post' | 'page';
  resource_id: string;
  /** The resource's updated_at the changes were made on. */
  base_version: Timestamp;
  /** That version's writable fields (a revision's snapshot of them), as JSON text. */
  base_fields: string;
  /** A PATCH body of the fields that differ from the live version, as JSON text. */
  changes: string;
  updated_by_user_id: string | null;
  updated_by_api_key_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A link that lets someone without an account read a draft or its pending changes (migration 0025). */
export interface ReviewLinksTable {
  id: string;
  workspace_id: string;
  resource_type: 'post' | 'page';
  resource_id: string;
  note: string | null;
  created_by_user_id: string | null;
  created_by_api_key_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  opened_count: Generated<number>;
  last_opened_at: Timestamp | null;
}

/** A pending invitation to a workspace (migration 0027); accepted or revoked ones are deleted. */
export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  /** JSON array of permission names. */
  permissions: string;
  token_hash: string;
  invited_by_user_id: string | null;
  created_at: Timestamp;
  sent_at: Timestamp;
  expires_at: Timestamp;
}

/** A password reset link, by the sha256 of its token (migration 0027); used ones are deleted. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** One entry of a workspace's audit log (migration 0028). */
export interface AuditEventsTable {
  id: string;
  workspace_id: string;
  at: Timestamp;
  action: string;
  category: string;
  actor_user_id: string | null;
  actor_key_id: string | null;
  actor_email: string | null;
  address: string | null;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  /** JSON object. */
  details: string;
}

/** A user's authenticator app (migration 0029); unconfirmed until its first right code. */
export interface TotpFactorsTable {
  user_id: string;
  secret_encrypted: string;
  confirmed_at: Timestamp | null;
  /** The newest time step a code was accepted for: no code of it or before it works again. */
  last_step: Generated<number>;
  created_at: Timestamp;
}

/** One unused recovery code, by its sha256 (migration 0029). */
export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  created_at: Timestamp;
}

/** A sign-in whose password was right, awaiting its second factor (migration 0029). */
export interface SignInChallengesTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A sign-on begun at the OpenID provider, awaiting its answer (migration 0030). */
export interface OidcLoginsTable {
  state_hash: string;
  nonce: string;
  code_verifier: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A post or page submitted for review (migration 0031): one per resource, its state moving. */
export interface ReviewsTable {
  id: string;
  workspace_id: string;
  resource_type: 'post' | 'page';
  resource_id: string;
  state: 'in_review' | 'changes_requested' | 'approved' | 'withdrawn';
  submitted_by: string | null;
  submitted_by_email: string;
  submitted_at: Timestamp;
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: Timestamp | null;
  updated_at: Timestamp;
}

/** One step of a review's thread (migration 0031). */
export interface ReviewEntriesTable {
  id: string;
  workspace_id: string;
  review_id: string;
  type: 'submitted' | 'comment' | 'changes_requested' | 'approved' | 'withdrawn';
  body: string | null;
  author_id: string | null;
  author_email: string;
  created_at: Timestamp;
}

/** What a member is told in the dashboard (migration 0031). */
export interface NotificationsTable {
  id: string;
  workspace_id: string;
  user_id: string;
  type: 'review_submitted' | 'review_comment' | 'changes_requested' | 'approved';
  review_id: string;
  actor_id: string | null;
  actor_email: string;
  excerpt: string | null;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

/** A user's passkey, a WebAuthn credential (migration 0032). */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url, as the authenticator names it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter (0 for those that keep none). */
  counter: Generated<number>;
  /** JSON array of the transports the authenticator named (`internal`, `usb`, `hybrid` …). */
  transports: Generated<string>;
  /** `singleDevice` or `multiDevice` (a synced passkey). */
  device_type: string;
  backed_up: Generated<DbBool>;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
}

/** A WebAuthn ceremony in flight, by the sha256 of its challenge (migration 0032); taken once. */
export interface WebauthnChallengesTable {
  challenge_hash: string;
  /** `registration`, `second_factor` or `passwordless`. */
  purpose: string;
  /** Null for a sign-in without a password: the passkey says who. */
  user_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface Database {
  content_events: ContentEventsTable;
  content_event_horizons: ContentEventHorizonsTable;
  post_revisions: RevisionsTable;
  page_revisions: RevisionsTable;
  sessions: SessionsTable;
  sign_in_attempts: SignInAttemptsTable;
  users: UsersTable;
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  content_keys: ContentKeysTable;
  cdn_purge_cursors: CdnPurgeCursorsTable;
  import_ledger: ImportLedgerTable;
  pending_changes: PendingChangesTable;
  review_links: ReviewLinksTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  audit_events: AuditEventsTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  oidc_logins: OidcLoginsTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  reviews: ReviewsTable;
  review_entries: ReviewEntriesTable;
  notifications: NotificationsTable;
  media: MediaTable;
  media_variants: MediaVariantsTable;
  authors: AuthorsTable;
  categories: CategoriesTable;
  tags: TagsTable;
  posts: PostsTable;
  post_tags: PostTagsTable;
  post_renders: PostRendersTable;
  post_status_counts: PostStatusCountsTable;
  post_tag_counts: PostTagCountsTable;
  related_posts: RelatedPostsTable;
  pages: PagesTable;
  redirects: RedirectsTable;
  link_health: LinkHealthTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type UserRow = Selectable<UsersTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type MembershipRow = Selectable<MembershipsTable>;
export type ContentKeyRow = Selectable<ContentKeysTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKeyRow = Insertable<ApiKeysTable>;
export type PostRow = Selectable<PostsTable>;
/**
 * A post as reads load it: search_head and search_text, a second folded copy of the text, serve the
 * indexes alone, and render_stamp only labels stored renders.
 */
export type StoredPost = Omit<PostRow, 'search_head' | 'search_text' | 'render_stamp'>;
export type NewPostRow = Insertable<PostsTable>;
export type MediaRow = Selectable<MediaTable>;
export type NewMediaRow = Insertable<MediaTable>;
export type AuthorRow = Selectable<AuthorsTable>;
export type CategoryRow = Selectable<CategoriesTable>;
export type TagRow = Selectable<TagsTable>;
