import { Migrator, type Migration, type MigrationResult, type MigrationResultSet } from 'kysely';
import type { DatabaseHandle } from './database.js';
import type { DialectHelpers } from './dialects/dialect.js';
import { initial } from './migrations/0001_initial.js';
import { nameSearch } from './migrations/0002_name_search.js';
import { mediaSearch } from './migrations/0003_media_search.js';
import { sessions } from './migrations/0004_sessions.js';
import { searchIndexes } from './migrations/0005_search_indexes.js';
import { postRenders } from './migrations/0006_post_renders.js';
import { postsLiveIndex } from './migrations/0007_posts_live_index.js';
import { searchHeads } from './migrations/0008_search_heads.js';
import { workspaceIdIndexes } from './migrations/0009_workspace_id_indexes.js';
import { renderRelatedStamp } from './migrations/0010_render_related_stamp.js';
import { contentEvents } from './migrations/0011_content_events.js';
import { revisions } from './migrations/0012_revisions.js';
import { eventHorizons } from './migrations/0013_event_horizons.js';
import { webhooks } from './migrations/0014_webhooks.js';
import { mediaPlaceholders } from './migrations/0015_media_placeholders.js';
import { postsSortIndexes } from './migrations/0016_posts_sort_indexes.js';
import { webhookEventBodies } from './migrations/0017_webhook_event_bodies.js';
import { searchWordColumns } from './migrations/0018_search_words.js';
import { postStatusCounts } from './migrations/0019_post_status_counts.js';
import { postTagCounts } from './migrations/0020_post_tag_counts.js';
import { webhookEndpointUser } from './migrations/0021_webhook_endpoint_user.js';
import { mediaSizes } from './migrations/0022_media_sizes.js';
import { contentDelivery } from './migrations/0023_content_delivery.js';
import { importLedger } from './migrations/0024_import_ledger.js';
import { pendingChanges } from './migrations/0025_pending_changes.js';
import { revisionWindows } from './migrations/0026_revision_windows.js';
import { invitations } from './migrations/0027_invitations.js';
import { auditEvents } from './migrations/0028_audit_events.js';
import { secondFactors } from './migrations/0029_second_factors.js';
import { oidcLogins } from './migrations/0030_oidc_logins.js';
import { reviews } from './migrations/0031_reviews.js';
import { passkeys } from './migrations/0032_passkeys.js';
import { renderDeflated } from './migrations/0033_render_deflated.js';

/** Every migration, in order. Names sort; never rename or edit one that has shipped. */
function migrations(helpers: DialectHelpers): Record<string, Migration> {
  return {
    '0001_initial': initial(helpers),
    '0002_name_search': nameSearch(),
    '0003_media_search': mediaSearch(),
    '0004_sessions': sessions(helpers),
    '0005_search_indexes': searchIndexes(helpers),
    '0006_post_renders': postRenders(helpers),
    '0007_posts_live_index': postsLiveIndex(),
    '0008_search_heads': searchHeads(helpers),
    '0009_workspace_id_indexes': workspaceIdIndexes(),
    '0010_render_related_stamp': renderRelatedStamp(),
    '0011_content_events': contentEvents(helpers),
    '0012_revisions': revisions(helpers),
    '0013_event_horizons': eventHorizons(helpers),
    '0014_webhooks': webhooks(helpers),
    '0015_media_placeholders': mediaPlaceholders(),
    '0016_posts_sort_indexes': postsSortIndexes(),
    '0017_webhook_event_bodies': webhookEventBodies(helpers),
    '0018_search_words': searchWordColumns(helpers),
    '0019_post_status_counts': postStatusCounts(helpers),
    '0020_post_tag_counts': postTagCounts(helpers),
    '0021_webhook_endpoint_user': webhookEndpointUser(helpers),
    '0022_media_sizes': mediaSizes(helpers),
    '0023_content_delivery': contentDelivery(helpers),
    '0024_import_ledger': importLedger(helpers),
    '0025_pending_changes': pendingChanges(helpers),
    '0026_revision_windows': revisionWindows(helpers),
    '0027_invitations': invitations(helpers),
    '0028_audit_events': auditEvents(helpers),
    '0029_second_factors': secondFactors(helpers),
    '0030_oidc_logins': oidcLogins(helpers),
    '0031_reviews': reviews(helpers),
    '0032_passkeys': passkeys(helpers),
    '0033_render_deflated': renderDeflated(helpers),
  };
}

/** The names of every migration, in the order they apply. */
export function migrationNames(helpers: DialectHelpers): string[] {
  return Object.keys(migrations(helpers));
}

/**
 * Brings the schema up to date. Idempotent, and safe when several instances start at once: Kysely's
 * migrator holds a lock (an advisory lock on PostgreSQL) while it runs.
 */
export async function migrateToLatest(database: DatabaseHandle): Promise<MigrationResult[]> {
  return outcome(await migrator(database).migrateToLatest());
}

/** Brings the schema to the migration named, and no further: tests of a migration start from the one before. */
export async function migrateTo(database: DatabaseHandle, name: string): Promise<MigrationResult[]> {
  return outcome(await migrator(database).migrateTo(name));
}

function migrator({ db, dialect }: DatabaseHandle): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: 'quire_migrations',
    migrationLockTableName: 'quire_migrations_lock',
  });
}

function outcome({ error, results }: MigrationResultSet): MigrationResult[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results ?? [];
}
