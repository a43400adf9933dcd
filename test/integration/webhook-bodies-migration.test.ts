import crypto from 'node:crypto';
import { expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { deliveriesRepository } from '../../src/modules/webhooks/dispatch/deliveries.repository.js';
import { describeEachDialect } from '../helpers/database.js';
import { databaseAtMigration } from '../helpers/migration.js';

/*
 * Migration 0017 keeps each event's body once. Deliveries queued before it carried a copy each: after it, every
 * event's body is kept once and each delivery, whatever its status, is sent with the body it carried.
 */
describeEachDialect('migration 0017: deliveries queued before it', (dialect) => {
  const { now, workspaceId, raw, handle } = databaseAtMigration(dialect, '0016_posts_sort_indexes');

  async function insertEndpoint(): Promise<string> {
    const id = crypto.randomUUID();
    await raw()
      .insertInto('webhook_endpoints')
      .values({
        id,
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
    return id;
  }

  async function insertDelivery(endpointId: string, eventId: string, payload: string, status: string) {
    const id = crypto.randomUUID();
    await raw()
      .insertInto('webhook_deliveries')
      .values({
        id,
        workspace_id: workspaceId,
        endpoint_id: endpointId,
        event_id: eventId,
        event_type: 'tag.created',
        payload,
        status,
        attempts: status === 'pending' ? 0 : 1,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  it('keeps one body an event, and every delivery with its id, status and the body it carried', async () => {
    const [a, b] = [await insertEndpoint(), await insertEndpoint()];
    const shared = '{"id":"evt_1","type":"tag.created","data":{"name":"Shared"}}';
    const alone = '{"id":"evt_2","type":"tag.created","data":{"name":"Alone"}}';
    const ids = [
      await insertDelivery(a, 'evt_1', shared, 'succeeded'),
      await insertDelivery(b, 'evt_1', shared, 'pending'),
      await insertDelivery(a, 'evt_1', shared, 'pending'), // a redelivery
      await insertDelivery(b, 'evt_2', alone, 'failed'),
    ];

    await migrateToLatest(handle());

    const bodies = await deliveriesRepository.bodies(handle().db, ['evt_1', 'evt_2']);
    expect(bodies.sort((x, y) => x.event_id.localeCompare(y.event_id))).toEqual([
      { event_id: 'evt_1', payload: shared },
      { event_id: 'evt_2', payload: alone },
    ]);
    const deliveries = await handle()
      .db.selectFrom('webhook_deliveries')
      .select(['id', 'event_id', 'status'])
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(new Map(deliveries.map((d) => [d.id, [d.event_id, d.status]]))).toEqual(
      new Map([
        [ids[0], ['evt_1', 'succeeded']],
        [ids[1], ['evt_1', 'pending']],
        [ids[2], ['evt_1', 'pending']],
        [ids[3], ['evt_2', 'failed']],
      ]),
    );
    expect(deliveries[0]).not.toHaveProperty('payload');
  });
});
