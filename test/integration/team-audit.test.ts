import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { htmlToBlocks } from '@quire/blocks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditListQuery } from '../../src/audit/audit.repository.js';
import { COMMAND_LINE, recordAudit } from '../../src/audit/audit-log.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { runImport } from '../../src/modules/imports/import-run.js';
import type { ImportItem, ImportSource } from '../../src/modules/imports/import-source.js';
import { ALL_PERMISSIONS } from '../../src/security/permissions.js';
import { pruneAudit } from '../../src/writes/event-retention.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { browserFrom, signIn, signInRequest, userWithPassword, type Browser } from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { queryPlan } from '../helpers/query-plan.js';
import { linkIn, SMTP_PASSWORD, startMailServer, type MailServer } from '../helpers/smtp.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);

/** A one-post source, as any reader hands the import runner. */
const onePost: ImportSource = {
  format: 'wordpress',
  site: 'https://old.example',
  async *items(): AsyncGenerator<ImportItem> {
    yield {
      type: 'post',
      sourceId: '1',
      title: 'Imported',
      slug: 'imported',
      status: 'published',
      publishedAt: '2020-05-01T10:00:00Z',
      body: { convert: (options) => htmlToBlocks('<p>Hello</p>', options), fingerprint: 'hello' },
      authorSourceIds: [],
      categorySourceIds: [],
      tagSourceIds: [],
      oldPaths: [],
      notes: [],
    };
  },
  locateMedia: () => null,
  entryCount: async () => 1,
  sourceNotes: () => [],
  close: async () => {},
};

describeEachDialect('the audit log', (dialect) => {
  let mail: MailServer;
  let ctx: TestContext;
  beforeAll(async () => {
    mail = await startMailServer();
    ctx = await buildTestApp(dialect, {
      env: { QUIRE_SMTP_URL: mail.url, QUIRE_PUBLIC_URL: 'https://cms.example.com' },
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  const from = (browser: Browser, address: string) => ({ ...browser, address });
  /** A dashboard request from `address`. */
  const call = (
    browser: Browser & { address?: string },
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
  ) =>
    ctx.app.inject({
      method,
      url: `/api/v1/dashboard${url}`,
      remoteAddress: browser.address ?? '127.0.0.1',
      headers: { cookie: browser.cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': browser.csrfToken }) },
      ...(body === undefined ? {} : { payload: body as Json }),
    });
  const ok = async (answer: Promise<{ statusCode: number; body: string; json: () => unknown }>) => {
    const done = await answer;
    expect(done.statusCode, done.body).toBeLessThan(300);
    return done.json() as Json;
  };
  const entries = async (browser: Browser, workspaceId: string, query = '') =>
    (await ok(call(browser, 'GET', `/workspaces/${workspaceId}/audit?limit=200${query}`))).data as Json[];

  /** An owner signed in from 10.9.0.1, of a workspace made on the command line. */
  async function ownerOfNewWorkspace() {
    const user = await userWithPassword(ctx);
    const workspace = await ctx.runtime.services.accounts.createWorkspace(`Audit ${user.id.slice(0, 6)}`, user.email);
    const owner = from(await signIn(ctx, user, '10.9.0.1'), '10.9.0.1');
    return { user, owner, workspaceId: workspace.id };
  }

  it('records who did what to the team, keys, webhooks and settings, with time and address, and no secret', async () => {
    const { user, owner, workspaceId } = await ownerOfNewWorkspace();
    const ws = `/workspaces/${workspaceId}`;
    const secrets: string[] = [user.password, SMTP_PASSWORD, owner.csrfToken, owner.cookie.split('=')[1]!];
    const started = new Date().toISOString();

    expect((await signInRequest(ctx, user.email, 'not the password', { remoteAddress: '10.9.0.9' })).statusCode).toBe(
      401,
    );
    secrets.push('not the password');
    // A failed sign-in is recorded behind its answer (so that it takes no longer than an unknown email's).
    await vi.waitFor(async () =>
      expect(
        await ctx.runtime.database.db
          .selectFrom('audit_events')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('action', '=', 'session.sign_in_failed')
          .execute(),
      ).toHaveLength(1),
    );

    // Invitations: one accepted, one resent then withdrawn.
    let since = mail.messages.length;
    await ok(call(owner, 'POST', `${ws}/invitations`, { email: 'joiner@example.com', permissions: ['posts:read'] }));
    const joinToken = tokenOf(linkIn(await mail.next('joiner@example.com', since)));
    const second = await ok(call(owner, 'POST', `${ws}/invitations`, { email: 'later@example.com', permissions: [] }));
    const secondId = second.invitation.id as string;
    await ctx.runtime.database.db
      .updateTable('invitations')
      .set({ sent_at: new Date(Date.now() - 120_000).toISOString() })
      .where('id', '=', secondId)
      .execute();
    since = mail.messages.length;
    await ok(call(owner, 'POST', `${ws}/invitations/${secondId}/resend`));
    secrets.push(tokenOf(linkIn(await mail.next('later@example.com', since))));
    await ok(call(owner, 'DELETE', `${ws}/invitations/${secondId}`));
    const accepted = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/dashboard/invitations/accept',
      remoteAddress: '10.9.0.2',
      payload: { token: joinToken, password: 'the joiner password' },
    });
    const joiner = browserFrom(accepted);
    secrets.push(joinToken, 'the joiner password', joiner.csrfToken);
    const joinerId = joiner.user.id;

    // Membership.
    await ok(call(owner, 'PATCH', `${ws}/members/${joinerId}`, { permissions: ['posts:read', 'posts:write'] }));
    await ok(call(owner, 'POST', `${ws}/members/${joinerId}/end-sessions`));
    await ok(call(owner, 'DELETE', `${ws}/members/${joinerId}`));

    // The workspace.
    await ok(call(owner, 'PATCH', ws, { name: 'Renamed' }));
    await ok(call(owner, 'PATCH', `${ws}/settings`, { siteName: 'A site' }));

    // Keys.
    const key = await ok(call(owner, 'POST', `${ws}/api-keys`, { name: 'Deploy' }));
    secrets.push(key.key as string);
    secrets.push((await ok(call(owner, 'POST', `${ws}/api-keys/${key.id}/reveal`))).key as string);
    await ok(call(owner, 'PATCH', `${ws}/api-keys/${key.id}`, { name: 'Deploy 2' }));
    await ok(call(owner, 'POST', `${ws}/api-keys/${key.id}/revoke`));
    const contentKey = await ok(call(owner, 'POST', `${ws}/content-keys`, { name: 'Site' }));
    secrets.push(contentKey.key as string);
    await ok(call(owner, 'PATCH', `${ws}/content-keys/${contentKey.id}`, { allowedOrigins: ['https://site.example'] }));
    await ok(call(owner, 'POST', `${ws}/content-keys/${contentKey.id}/revoke`));

    // A webhook whose URL carries a token.
    const hook = await ok(
      call(owner, 'POST', `${ws}/webhooks`, { url: 'https://hooks.example.com/quire?token=hook-url-token' }),
    );
    secrets.push(hook.secret as string, 'hook-url-token');
    await ok(call(owner, 'PATCH', `${ws}/webhooks/${hook.id}`, { description: 'Deploys', enabled: false }));
    secrets.push((await ok(call(owner, 'POST', `${ws}/webhooks/${hook.id}/reveal-secret`))).secret as string);
    secrets.push((await ok(call(owner, 'POST', `${ws}/webhooks/${hook.id}/rotate-secret`))).secret as string);
    await ok(call(owner, 'DELETE', `${ws}/webhooks/${hook.id}`));

    // Passwords: changed, then reset by mail.
    const changed = await call(owner, 'POST', '/password', {
      currentPassword: user.password,
      newPassword: 'a changed password',
    });
    const owner2 = from(browserFrom(changed), '10.9.0.1');
    secrets.push('a changed password', owner2.csrfToken);
    since = mail.messages.length;
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/dashboard/password-reset',
      payload: { email: user.email },
      remoteAddress: '10.9.0.3',
    });
    const resetToken = tokenOf(linkIn(await mail.next(user.email, since)));
    const reset = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/dashboard/password-reset/complete',
      remoteAddress: '10.9.0.3',
      payload: { token: resetToken, newPassword: 'a reset password' },
    });
    const owner3 = from(browserFrom(reset), '10.9.0.3');
    secrets.push(resetToken, 'a reset password', owner3.csrfToken);

    // An import from the dashboard's owner, and an export on the command line.
    const actor = await ctx.runtime.services.dashboard.workspaces.actorFor(user.id, workspaceId);
    await runImport(ctx.runtime.database, ctx.runtime.services, onePost, {
      actor: { ...actor, address: '10.9.0.3' },
      dryRun: false,
      strict: false,
      media: { maxBytes: 1_000_000, allowPrivate: false, downloadTimeoutMs: 1_000 },
    });
    const out = path.join(await mkdtemp(path.join(tmpdir(), 'quire-audit-')), 'site.quire');
    await COMMANDS.export!.run(ctx.runtime, { flags: { workspace: workspaceId, out }, readStdin: async () => '' });

    const log = await entries(owner3, workspaceId);
    const byAction = new Map(log.map((entry) => [entry.action as string, entry]));
    expect([...log.map((entry) => entry.action)].reverse()).toEqual([
      'session.signed_in',
      'session.sign_in_failed',
      'invitation.created',
      'invitation.created',
      'invitation.resent',
      'invitation.withdrawn',
      'invitation.accepted',
      'member.permissions_changed',
      'member.sessions_ended',
      'member.removed',
      'workspace.renamed',
      'workspace.settings_changed',
      'api_key.created',
      'api_key.revealed',
      'api_key.updated',
      'api_key.revoked',
      'content_key.created',
      'content_key.updated',
      'content_key.revoked',
      'webhook.created',
      'webhook.updated',
      'webhook.secret_revealed',
      'webhook.secret_rotated',
      'webhook.deleted',
      'password.changed',
      'password.reset',
      'import.finished',
      'export.made',
    ]);
    for (const entry of log) expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(Date.parse(started) - 5_000);

    expect(byAction.get('session.sign_in_failed')).toMatchObject({
      actor: { kind: 'anonymous', userId: null },
      address: '10.9.0.9',
      target: { type: 'user', id: user.id, label: user.email },
    });
    expect(byAction.get('invitation.accepted')).toMatchObject({
      actor: { kind: 'user', userId: joinerId, email: 'joiner@example.com' },
      address: '10.9.0.2',
      target: { type: 'invitation', label: 'joiner@example.com' },
      details: { accountCreated: true, permissions: ['posts:read'] },
    });
    expect(byAction.get('member.permissions_changed')).toMatchObject({
      actor: { kind: 'user', userId: user.id, email: user.email },
      address: '10.9.0.1',
      target: { type: 'user', id: joinerId, label: 'joiner@example.com' },
      details: { added: ['posts:write'], removed: [] },
    });
    expect(byAction.get('api_key.updated')).toMatchObject({
      target: { label: 'Deploy 2' },
      details: { name: 'Deploy 2' },
    });
    expect(byAction.get('webhook.created')).toMatchObject({ target: { label: 'https://hooks.example.com/quire' } });
    expect(byAction.get('webhook.updated')).toMatchObject({ details: { description: 'Deploys', enabled: false } });
    expect(byAction.get('password.reset')).toMatchObject({ actor: { kind: 'user' }, address: '10.9.0.3' });
    expect(byAction.get('import.finished')).toMatchObject({
      actor: { kind: 'user', userId: user.id },
      details: { format: 'wordpress', site: 'https://old.example', created: 1 },
    });
    expect(byAction.get('export.made')).toMatchObject({
      actor: { kind: 'command_line', userId: null },
      address: null,
      details: { file: 'site.quire' },
    });

    const signIns = await entries(owner3, workspaceId, '&action=session.signed_in');
    expect(signIns.map((entry) => entry.address)).toEqual(['10.9.0.1']);

    // No secret anywhere: not in the stored rows, not in the screen's answer, not in the export.
    const rows = JSON.stringify(
      await ctx.runtime.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .execute(),
    );
    const listed = JSON.stringify(log);
    const exported = (await call(owner3, 'GET', `/workspaces/${workspaceId}/audit/export`)).body;
    expect(exported.trim().split('\n')).toHaveLength(log.length);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(5);
      for (const [where, text] of Object.entries({ rows, listed, exported }))
        expect(text.includes(secret), `${where} holds ${secret.slice(0, 4)}…`).toBe(false);
    }
  });

  it('filters by category, action, person and time, pages by `before`, and exports what it lists as JSON lines', async () => {
    const { owner, workspaceId } = await ownerOfNewWorkspace();
    const ws = `/workspaces/${workspaceId}`;
    const member = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspaceId, member.email, [...ALL_PERMISSIONS], COMMAND_LINE);
    const admin = from(await signIn(ctx, member, '10.8.0.2'), '10.8.0.2');
    for (const name of ['one', 'two', 'three']) await ok(call(owner, 'POST', `${ws}/api-keys`, { name }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const middle = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await ok(call(admin, 'POST', `${ws}/webhooks`, { url: 'https://hooks.example.com/a' }));
    await ok(call(admin, 'POST', `${ws}/api-keys`, { name: 'four' }));

    const all = await entries(owner, workspaceId);
    expect(all.map((entry) => entry.action)).toEqual([
      'api_key.created',
      'webhook.created',
      'api_key.created',
      'api_key.created',
      'api_key.created',
      'session.signed_in',
      'member.added',
      'session.signed_in',
    ]);
    const actions = (list: Json[]) => list.map((entry) => `${entry.action} ${entry.target?.label ?? ''}`.trim());
    expect(actions(await entries(owner, workspaceId, '&category=api_key'))).toEqual([
      'api_key.created four',
      'api_key.created three',
      'api_key.created two',
      'api_key.created one',
    ]);
    expect(actions(await entries(owner, workspaceId, `&actor=${member.id}`))).toEqual([
      'api_key.created four',
      'webhook.created https://hooks.example.com/a',
      `session.signed_in ${member.email}`,
    ]);
    expect(actions(await entries(owner, workspaceId, `&actor=${member.id}&category=api_key`))).toEqual([
      'api_key.created four',
    ]);
    expect(actions(await entries(owner, workspaceId, `&since=${middle}`))).toEqual([
      'api_key.created four',
      'webhook.created https://hooks.example.com/a',
    ]);
    expect(actions(await entries(owner, workspaceId, `&until=${middle}&category=api_key`))).toHaveLength(3);

    // Pages of two, walked by `next`, are the whole list in order.
    const walked: Json[] = [];
    let next: string | null = null;
    do {
      const page = await ok(
        call(owner, 'GET', `${ws}/audit?limit=2${next === null ? '' : `&before=${encodeURIComponent(next)}`}`),
      );
      expect(page.data.length).toBeLessThanOrEqual(2);
      walked.push(...page.data);
      next = page.next;
    } while (next !== null);
    expect(walked.map((entry) => entry.id)).toEqual(all.map((entry) => entry.id));

    const exported = await call(owner, 'GET', `${ws}/audit/export?category=api_key`);
    expect(exported.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="audit-.*\.jsonl"$/);
    expect(
      exported.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual((await entries(owner, workspaceId, '&category=api_key')).map((entry) => entry.id));
  });

  it('refuses bad filters with the parameter’s path, and keeps the log from those without audit:read', async () => {
    const { owner, workspaceId } = await ownerOfNewWorkspace();
    const ws = `/workspaces/${workspaceId}`;
    const refused = async (query: string) => {
      const answer = await call(owner, 'GET', `${ws}/audit?${query}`);
      expect(answer.statusCode, query).toBe(400);
      return answer.json().details.issues[0].path as string;
    };
    expect(await refused('before=nonsense')).toBe('/before');
    expect(await refused(`before=${Buffer.from('2026-01-01T00:00:00Z|x').toString('base64url')}`)).toBe('/before');
    expect(await refused('since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z')).toBe('/until');
    expect(await refused('category=webhook&action=api_key.created')).toBe('/action');
    expect(await refused('category=nothing')).toBe('/category');
    expect(await refused('limit=0')).toBe('/limit');
    expect(await refused('actor=not-a-uuid')).toBe('/actor');

    const editor = await userWithPassword(ctx);
    const permissions = ALL_PERMISSIONS.filter((permission) => permission !== 'audit:read');
    await ctx.runtime.services.accounts.addMember(workspaceId, editor.email, permissions, COMMAND_LINE);
    const browser = await signIn(ctx, editor);
    for (const url of [`${ws}/audit`, `${ws}/audit/export`]) {
      const answer = await call(browser, 'GET', url);
      expect(answer.statusCode).toBe(403);
      expect(answer.json().details.permission).toBe('audit:read');
    }
    // Another workspace's log is not there at all.
    const other = await ownerOfNewWorkspace();
    expect((await call(browser, 'GET', `/workspaces/${other.workspaceId}/audit`)).statusCode).toBe(404);
  });

  it('names the key and its address when a key acts through the external API', async () => {
    const { workspace, key, keyId } = await ctx.ownerKey();
    const made = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/external/api-keys',
      remoteAddress: '10.7.0.7',
      headers: { 'x-api-key': key },
      payload: { name: 'Made by a key' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const owner = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspace.id, owner.email, ['audit:read'], COMMAND_LINE);
    const reader = await signIn(ctx, owner);
    const [entry] = await entries(reader, workspace.id, '&category=api_key');
    expect(entry).toMatchObject({
      action: 'api_key.created',
      actor: { kind: 'key', userId: workspace.owner.id, apiKeyId: keyId, apiKeyName: 'test key' },
      address: '10.7.0.7',
      target: { label: 'Made by a key' },
    });
  });

  it('reads entries recorded within one millisecond in the order they were recorded', async () => {
    const { owner, workspaceId } = await ownerOfNewWorkspace();
    const labels = Array.from({ length: 40 }, (_, n) => `key ${n}`);
    for (const label of labels)
      await recordAudit(ctx.runtime.database.db, workspaceId, COMMAND_LINE, {
        action: 'api_key.created',
        target: { type: 'api_key', id: label, label },
      });
    const listed = await entries(owner, workspaceId, '&category=api_key');
    expect(listed.map((entry) => entry.target.label)).toEqual([...labels].reverse());
  });

  it('prunes entries older than the retention, of every workspace, and keeps the rest', async () => {
    const { owner, workspaceId } = await ownerOfNewWorkspace();
    const db = ctx.runtime.database.db;
    const old = new Date(Date.now() - 400 * 86_400_000).toISOString();
    await db
      .insertInto('audit_events')
      .values(
        [1, 2, 3].map((n) => ({
          id: crypto.randomUUID(),
          workspace_id: workspaceId,
          at: old,
          action: 'api_key.created',
          category: 'api_key',
          actor_user_id: null,
          actor_key_id: null,
          actor_email: null,
          address: null,
          target_type: 'api_key',
          target_id: `old-${n}`,
          target_label: `old ${n}`,
          details: '{}',
        })),
      )
      .execute();
    expect(await entries(owner, workspaceId)).toHaveLength(4);
    expect((await pruneAudit(ctx.runtime.database, 365)).entries).toBeGreaterThanOrEqual(3);
    expect((await entries(owner, workspaceId)).map((entry) => entry.action)).toEqual(['session.signed_in']);
  });

  describe('lists', () => {
    it('walk an index in time order for each filter, in as many queries whatever the page size', async () => {
      const { owner, workspaceId } = await ownerOfNewWorkspace();
      const db = ctx.runtime.database.db;
      const shapes = {
        audit_events_workspace_at_idx: {},
        audit_events_workspace_category_idx: { category: 'api_key' },
        audit_events_workspace_actor_idx: { actorUserId: owner.user.id },
      };
      for (const [index, filter] of Object.entries(shapes)) {
        const before = { at: new Date().toISOString(), id: crypto.randomUUID() };
        const plan = await queryPlan(db, dialect, auditListQuery(db, workspaceId, filter, before, 50));
        if (dialect === 'sqlite') {
          expect(plan, index).toMatch(new RegExp(`SEARCH audit_events USING INDEX ${index}`));
          expect(plan, index).not.toMatch(/TEMP B-TREE/);
        } else {
          expect(plan, index).toMatch(new RegExp(`Index Scan Backward using ${index}`));
          expect(plan, index).not.toMatch(/Sort\b/);
        }
      }
      for (const name of ['a', 'b', 'c'])
        await ok(call(owner, 'POST', `/workspaces/${workspaceId}/api-keys`, { name }));
      const stats = ctx.runtime.database.stats;
      const cost = async (limit: number) => {
        const before = stats.queries;
        await ok(call(owner, 'GET', `/workspaces/${workspaceId}/audit?limit=${limit}`));
        return stats.queries - before;
      };
      expect(await cost(1)).toBe(await cost(50));
    });
  });
});
