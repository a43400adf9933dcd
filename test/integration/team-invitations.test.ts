import { afterAll, beforeAll, expect, it } from 'vitest';
import { invitationListQuery } from '../../src/modules/team/invitations.repository.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { queryPlan } from '../helpers/query-plan.js';
import {
  browserFrom,
  send,
  signedInMember,
  signedInOwner,
  signIn,
  signInRequest,
  userWithPassword,
  type Browser,
} from '../helpers/dashboard.js';
import { describeEachDialect } from '../helpers/database.js';
import { linkIn, startMailServer, type MailServer } from '../helpers/smtp.js';

const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describeEachDialect('invitations, mailed over SMTP', (dialect) => {
  let mail: MailServer;
  let ctx: TestContext;
  let owner: Browser;
  let workspaceId: string;
  beforeAll(async () => {
    mail = await startMailServer();
    ctx = await buildTestApp(dialect, {
      env: {
        QUIRE_SMTP_URL: mail.url,
        QUIRE_MAIL_FROM: 'Quire <quire@example.com>',
        QUIRE_PUBLIC_URL: 'https://cms.example.com',
      },
    });
    ({ owner, workspaceId } = await signedInOwner(ctx));
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  const w = () => `/workspaces/${workspaceId}`;
  const invite = (email: string, permissions: string[] = ['posts:read', 'posts:write']) =>
    send(ctx, owner, 'POST', `${w()}/invitations`, { email, permissions });
  const anonymous = (path: string, payload: Json) => send(ctx, null, 'POST', path, payload);

  it('mails a new person a link, in text and HTML, that makes their account and membership once', async () => {
    const since = mail.messages.length;
    const sent = await invite('New.Writer@Example.com');
    expect(sent.statusCode, sent.body).toBe(201);
    const body = sent.json();
    expect(body.mail).toEqual({ sent: true });
    // A mailed link is the mailbox's alone.
    expect(body).not.toHaveProperty('link');
    expect(body.invitation).toMatchObject({
      email: 'new.writer@example.com',
      permissions: ['posts:read', 'posts:write'],
      invitedByEmail: owner.user.email,
      expired: false,
    });
    expect(Date.parse(body.invitation.expiresAt) - Date.parse(body.invitation.sentAt)).toBe(7 * 24 * 3600 * 1000);

    const message = await mail.next('new.writer@example.com', since);
    expect(message.from).toMatch(/^"?Quire"? <quire@example\.com>$/);
    expect(message.subject).toMatch(/invited to Site /);
    const link = linkIn(message);
    expect(link).toMatch(/^https:\/\/cms\.example\.com\/dashboard\/invitation#[A-Za-z0-9_-]{43}$/);
    expect(message.html).toContain(`href="${link}"`);
    expect(message.text).toContain(owner.user.email);

    const token = tokenOf(link);
    const preview = await anonymous('/invitations/preview', { token });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ workspaceId, email: 'new.writer@example.com', accountExists: false });

    const short = await anonymous('/invitations/accept', { token, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().details.issues[0].path).toBe('/password');

    const accepted = await anonymous('/invitations/accept', { token, password: 'a new password' });
    const writer = browserFrom(accepted);
    expect(writer.user.email).toBe('new.writer@example.com');
    expect(accepted.json().workspaces).toEqual([
      expect.objectContaining({ id: workspaceId, isOwner: false, permissions: ['posts:read', 'posts:write'] }),
    ]);
    expect((await send(ctx, writer, 'GET', `${w()}/posts`)).statusCode).toBe(200);
    // The account signs in with the password it chose.
    expect((await signInRequest(ctx, 'new.writer@example.com', 'a new password')).statusCode).toBe(200);

    // Once: the link is spent, and the invitation gone from the list.
    const again = await anonymous('/invitations/accept', { token, password: 'a new password' });
    expect(again.statusCode).toBe(404);
    expect((await send(ctx, owner, 'GET', `${w()}/invitations`)).json()).toEqual([]);
  });

  it('lets an existing account join with its own password, and counts wrong ones against the sign-in throttle', async () => {
    const someone = await userWithPassword(ctx);
    const since = mail.messages.length;
    expect((await invite(someone.email, ['pages:read'])).statusCode).toBe(201);
    const token = tokenOf(linkIn(await mail.next(someone.email, since)));
    expect((await anonymous('/invitations/preview', { token })).json().accountExists).toBe(true);

    const wrong = await anonymous('/invitations/accept', { token, password: 'not their password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details.issues[0]).toMatchObject({ path: '/password' });
    for (let i = 0; i < 4; i += 1) await anonymous('/invitations/accept', { token, password: 'still wrong' });
    const throttled = await anonymous('/invitations/accept', { token, password: someone.password });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBeDefined();

    // From another address the right password joins; the account's password is unchanged.
    const joined = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/dashboard/invitations/accept',
      payload: { token, password: someone.password },
      remoteAddress: '10.9.8.7',
    });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json().user.id).toBe(someone.id);
    expect(joined.json().workspaces.map((x: Json) => x.permissions)).toEqual([['pages:read']]);
    expect((await signIn(ctx, someone, '10.9.8.8')).user.id).toBe(someone.id);
  });

  it('refuses a member, a second invitation of one email, and bad input, writing nothing', async () => {
    const member = await signedInMember(ctx, workspaceId, ['posts:read']);
    const already = await invite(member.user.email);
    expect(already.statusCode).toBe(409);
    expect(already.json().details.reason).toBe('member');

    expect((await invite('twice@example.com')).statusCode).toBe(201);
    const twice = await invite('TWICE@example.com');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().details.reason).toBe('invited');

    const badEmail = await invite('not-an-email');
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().details.issues[0].path).toBe('/email');
    const badPermission = await send(ctx, owner, 'POST', `${w()}/invitations`, {
      email: 'x@example.com',
      permissions: ['posts:publish'],
    });
    expect(badPermission.statusCode).toBe(400);
    expect(badPermission.json().details.issues[0].path).toMatch(/^\/permissions/);
    const extra = await send(ctx, owner, 'POST', `${w()}/invitations`, {
      email: 'y@example.com',
      permissions: [],
      role: 'x',
    });
    expect(extra.statusCode).toBe(400);

    const listed = (await send(ctx, owner, 'GET', `${w()}/invitations`)).json() as Json[];
    expect(
      listed.map((i) => i.email),
      JSON.stringify(listed),
    ).toEqual(['twice@example.com']);
  });

  it('is the owner’s alone: a member can neither list, invite, resend nor withdraw', async () => {
    const editor = await signedInMember(ctx, workspaceId, ['posts:read', 'posts:write', 'api-keys:write']);
    const id = ((await send(ctx, owner, 'GET', `${w()}/invitations`)).json() as Json[])[0]!.id;
    for (const [method, path, payload] of [
      ['GET', `${w()}/invitations`, undefined],
      ['POST', `${w()}/invitations`, { email: 'z@example.com', permissions: [] }],
      ['POST', `${w()}/invitations/${id}/resend`, undefined],
      ['DELETE', `${w()}/invitations/${id}`, undefined],
    ] as const) {
      const response = await send(ctx, editor, method, path, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
    }
  });

  it('resends with a new link that ends the old one, at most once a minute, and withdraws', async () => {
    const since = mail.messages.length;
    const created = (await invite('resend@example.com')).json();
    const first = tokenOf(linkIn(await mail.next('resend@example.com', since)));
    const tooSoon = await send(ctx, owner, 'POST', `${w()}/invitations/${created.invitation.id}/resend`);
    expect(tooSoon.statusCode).toBe(429);
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);

    // As if the first mail went out two minutes ago.
    await ctx.runtime.database.db
      .updateTable('invitations')
      .set({ sent_at: new Date(Date.now() - 120_000).toISOString() })
      .where('id', '=', created.invitation.id)
      .execute();
    const before = mail.messages.length;
    const resent = await send(ctx, owner, 'POST', `${w()}/invitations/${created.invitation.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const second = tokenOf(linkIn(await mail.next('resend@example.com', before)));
    expect(second).not.toBe(first);
    expect((await anonymous('/invitations/preview', { token: first })).statusCode).toBe(404);
    expect((await anonymous('/invitations/preview', { token: second })).statusCode).toBe(200);

    expect((await send(ctx, owner, 'DELETE', `${w()}/invitations/${created.invitation.id}`)).json()).toEqual({
      revoked: true,
    });
    expect((await send(ctx, owner, 'DELETE', `${w()}/invitations/${created.invitation.id}`)).statusCode).toBe(404);
    expect((await anonymous('/invitations/preview', { token: second })).statusCode).toBe(404);
  });

  it('answers expired, withdrawn, used and forged links alike, changing nothing', async () => {
    const since = mail.messages.length;
    const created = (await invite('late@example.com')).json();
    const token = tokenOf(linkIn(await mail.next('late@example.com', since)));
    await ctx.runtime.database.db
      .updateTable('invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created.invitation.id)
      .execute();
    const listed = ((await send(ctx, owner, 'GET', `${w()}/invitations`)).json() as Json[]).find(
      (i) => i.id === created.invitation.id,
    );
    expect(listed?.expired).toBe(true);

    const answers = [];
    for (const candidate of [token, 'A'.repeat(43), 'short', 'x'.repeat(100)])
      for (const path of ['/invitations/preview', '/invitations/accept'])
        answers.push(
          await anonymous(path, {
            token: candidate,
            ...(path.endsWith('accept') ? { password: 'whatever password' } : {}),
          }),
        );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(404));
    expect(new Set(answers.map((a) => a.json().message)).size).toBe(1);
    expect((await signInRequest(ctx, 'late@example.com', 'whatever password')).statusCode).toBe(401);
    expect((await anonymous('/invitations/preview', { token: 'x'.repeat(101) })).statusCode).toBe(400);
  });

  it('keeps the invitation and hands the link over when the mail server refuses the message', async () => {
    mail.refuse(true);
    try {
      const sent = await invite('refused@example.com');
      expect(sent.statusCode, sent.body).toBe(201);
      const body = sent.json();
      expect(body.mail.sent).toBe(false);
      expect(body.mail.reason).toMatch(/mail server/);
      expect(body.link).toMatch(/^https:\/\/cms\.example\.com\/dashboard\/invitation#[A-Za-z0-9_-]{43}$/);
      expect((await anonymous('/invitations/preview', { token: tokenOf(body.link) })).statusCode).toBe(200);
      // The operator hears why; the log holds no link and no SMTP password.
      const logged = ctx.logs.filter((line) => line.msg === 'the mail server did not take a message');
      expect(logged).toHaveLength(1);
      expect(JSON.stringify(ctx.logs)).not.toContain(tokenOf(body.link));
      expect(JSON.stringify(ctx.logs)).not.toContain('smtp-secret-for-tests');
    } finally {
      mail.refuse(false);
    }
  });

  it('lists from the workspace’s index in the list’s order, in as many queries however long (query plan)', async () => {
    const plan = await queryPlan(
      ctx.runtime.database.db,
      dialect,
      invitationListQuery(ctx.runtime.database.db, workspaceId),
    );
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/SEARCH invitations USING INDEX invitations_workspace_created_idx \(workspace_id=\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE|SCAN invitations/);
    } else {
      expect(plan).toMatch(/Index Scan Backward using invitations_workspace_created_idx/);
      expect(plan).not.toMatch(/Seq Scan on invitations|Sort\b/);
    }
    const stats = ctx.runtime.database.stats;
    const queriesOfList = async () => {
      const before = stats.queries;
      expect((await send(ctx, owner, 'GET', `${w()}/invitations`)).statusCode).toBe(200);
      return stats.queries - before;
    };
    const few = await queriesOfList();
    for (const n of [1, 2, 3]) expect((await invite(`count-${n}@example.com`)).statusCode).toBe(201);
    expect(await queriesOfList()).toBe(few);
  });

  it('says the server can mail', async () => {
    expect((await send(ctx, null, 'GET', '/capabilities')).json()).toEqual({ mail: true, sso: null });
  });
});

describeEachDialect('invitations without SMTP', (dialect) => {
  let ctx: TestContext;
  let owner: Browser;
  let workspaceId: string;
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ owner, workspaceId } = await signedInOwner(ctx));
  });
  afterAll(() => ctx?.close());

  it('answers the link to pass on, and says why it was not mailed', async () => {
    expect((await send(ctx, null, 'GET', '/capabilities')).json()).toEqual({ mail: false, sso: null });
    const sent = await send(ctx, owner, 'POST', `/workspaces/${workspaceId}/invitations`, {
      email: 'by-hand@example.com',
      permissions: ['posts:read'],
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().mail).toEqual({ sent: false, reason: 'This server sends no mail: QUIRE_SMTP_URL is not set.' });
    const token = tokenOf(sent.json().link);
    const joined = await send(ctx, null, 'POST', '/invitations/accept', { token, password: 'by hand password' });
    expect(joined.statusCode, joined.body).toBe(200);
  });
});
