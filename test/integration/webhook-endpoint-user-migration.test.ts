import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { deliveriesRepository } from '../../src/modules/webhooks/dispatch/deliveries.repository.js';
import { describeEachDialect } from '../helpers/database.js';
import { databaseAtMigration } from '../helpers/migration.js';

/*
 * Migration 0021: an endpoint sends what its user may read. Endpoints made before it sent every event, which only
 * the workspace's owner may read: they become the owner's, and go on sending what they sent.
 */
describeEachDialect('migration 0021: endpoints made before it', (dialect) => {
  const { now, userId, workspaceId, raw, handle } = databaseAtMigration(dialect, '0020_post_tag_counts');

  it("makes each endpoint its workspace owner's, and leaves its deliveries unskipped", async () => {
    const endpointId = crypto.randomUUID();
    await raw()
      .insertInto('webhook_endpoints')
      .values({
        id: endpointId,
        workspace_id: workspaceId,
        url: 'https://hooks.example.com/',
        description: '',
        event_types: null,
        enabled: true,
        secret_encrypted: 'x',
        master_key_id: 'k',
        created_at: now,
        updated_at: now,
      })
      .execute();
    await raw()
      .insertInto('webhook_deliveries')
      .values({
        id: crypto.randomUUID(),
        workspace_id: workspaceId,
        endpoint_id: endpointId,
        event_id: 'evt_1',
        event_type: 'post.created',
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();

    await migrateToLatest(handle());

    const [endpoint] = await deliveriesRepository.endpoints(handle().db, [endpointId]);
    expect(endpoint).toMatchObject({ user_id: userId, owner_user_id: userId });
    const delivery = await handle()
      .db.selectFrom('webhook_deliveries')
      .select('skipped_reason')
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow();
    expect(delivery.skipped_reason).toBeNull();
  });
});
