import { describe, expect, it } from 'vitest';
import { lintAs as lintAsFile } from './lint-as.js';

const lintAs = (file: string, code: string) => lintAsFile(file, code, 'no-restricted');

const BUMP_BY_HAND = `
import type { Kysely } from 'kysely';
export async function touch(db: Kysely<any>, id: string) {
  await db.updateTable('workspaces').set((eb: any) => ({ content_version: eb('content_version', '+', 1) })).where('id', '=', id).execute();
}
`;
const RAW_BUMP = `
import { sql } from 'kysely';
export const bump = (id: string) => sql\`update workspaces set embeds_version = embeds_version + 1 where id = \${id}\`;
`;
const EVENT_BY_HAND = `
import type { Kysely } from 'kysely';
export async function record(db: Kysely<any>) {
  await db.insertInto('content_events').values({}).execute();
}
`;
const REVISION_BY_HAND = `
import type { Kysely } from 'kysely';
export async function keep(db: Kysely<any>) {
  await db.insertInto('post_revisions').values({}).execute();
  await db.deleteFrom('page_revisions').execute();
}
`;
const REPOSITORY_IMPORT = `
import { contentEventsRepository } from '../../writes/content-events.repository.js';
export const events = contentEventsRepository;
`;

const DELIVERY_BY_HAND = `
import type { Kysely } from 'kysely';
export async function queue(db: Kysely<any>) {
  await db.insertInto('webhook_deliveries').values({}).execute();
}
`;
const BODY_BY_HAND = `
import type { Kysely } from 'kysely';
export async function keep(db: Kysely<any>) {
  await db.insertInto('webhook_events').values({}).execute();
}
`;
const OUTBOX_REPOSITORY_IMPORT = `
import { webhookOutboxRepository } from '../../writes/webhook-outbox.repository.js';
export const outbox = webhookOutboxRepository;
`;

describe('the lint rule that keeps content writes on the one write path', () => {
  it('refuses a module that moves a version or records an event itself', async () => {
    const file = 'src/modules/tags/touch.ts';
    expect(await lintAs(file, BUMP_BY_HAND)).toEqual([expect.stringMatching(/versions move with the content events/)]);
    expect(await lintAs(file, RAW_BUMP)).toEqual([expect.stringMatching(/versions move with the content events/)]);
    expect(await lintAs(file, EVENT_BY_HAND)).toEqual([expect.stringMatching(/recorded by contentWrite/)]);
    expect(await lintAs(file, REPOSITORY_IMPORT)).toEqual([expect.stringMatching(/recorded by contentWrite/)]);
    expect(await lintAs(file, REVISION_BY_HAND)).toEqual([
      expect.stringMatching(/Revisions are recorded by contentWrite/),
      expect.stringMatching(/Revisions are recorded by contentWrite/),
    ]);
  });

  it('refuses a module that writes a webhook delivery into the outbox itself', async () => {
    const file = 'src/modules/webhooks/queue.ts';
    expect(await lintAs(file, DELIVERY_BY_HAND)).toEqual([expect.stringMatching(/enter the outbox through/)]);
    expect(await lintAs(file, BODY_BY_HAND)).toEqual([expect.stringMatching(/enter the outbox through/)]);
    expect(await lintAs(file, OUTBOX_REPOSITORY_IMPORT)).toEqual([expect.stringMatching(/enter the outbox through/)]);
    expect(await lintAs('src/writes/webhook-outbox.repository.ts', DELIVERY_BY_HAND)).toEqual([]);
  });

  it('lets the write path itself record events', async () => {
    expect(await lintAs('src/writes/content-events.repository.ts', EVENT_BY_HAND)).toEqual([]);
    expect(await lintAs('src/writes/revisions.repository.ts', REVISION_BY_HAND)).toEqual([]);
  });
});
