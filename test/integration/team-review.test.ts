import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';
import { ROLES } from '../../src/security/roles.js';
import { inboxQuery, reviewQueueQuery, reviewsRepository } from '../../src/modules/reviews/reviews.repository.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { send, signIn, userWithPassword, type Browser } from '../helpers/dashboard.js';
import { queryPlan } from '../helpers/query-plan.js';
import { pruneAudit } from '../../src/writes/event-retention.js';
import { startMailServer, type MailServer } from '../helpers/smtp.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Review (docs/team.md, "Review"): a contributor submits a draft, an editor comments, requests changes, approves
 * and publishes it in one write; each is told in the dashboard and by mail.
 */
describeEachDialect('review: submit, comment, request changes, approve and publish', (dialect) => {
  let mail: MailServer;
  let ctx: TestContext;
  let owner: Browser;
  let editor: Browser;
  let writer: Browser;
  let reader: Browser;
  let workspaceId: string;

  const member = async (permissions: readonly string[]) => {
    const user = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspaceId, user.email, permissions as never, COMMAND_LINE);
    return signIn(ctx, user);
  };

  beforeAll(async () => {
    mail = await startMailServer();
    ctx = await buildTestApp(dialect, {
      env: {
        QUIRE_SMTP_URL: mail.url,
        QUIRE_MAIL_FROM: 'Quire <quire@example.com>',
        QUIRE_PUBLIC_URL: 'https://cms.example.com',
      },
    });
    const ownerUser = await userWithPassword(ctx);
    owner = await signIn(ctx, ownerUser);
    const created = await send(ctx, owner, 'POST', '/workspaces', { name: `Review ${dialect}` });
    workspaceId = created.json().id;
    editor = await member(ROLES.editor);
    writer = await member(ROLES.contributor);
    reader = await member(['posts:read']);
  });
  afterAll(async () => {
    await ctx?.close();
    await mail?.close();
  });

  const w = (path: string) => `/workspaces/${workspaceId}${path}`;
  const call = (who: Browser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: Json) =>
    send(ctx, who, method, w(path), body);
  const ok = async (response: Promise<{ statusCode: number; body: string; json(): Json }>, status = 200) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBe(status);
    return answer.json();
  };
  const draft = (who: Browser, title: string, kind: 'posts' | 'pages' = 'posts') =>
    ok(call(who, 'POST', `/${kind}`, { title, bodyJson: [{ type: 'paragraph', text: 'Words.' }] }), 201);
  /** Mail goes after the answer, so each is waited for by whom it is to and what it is about. */
  const mailed = (to: string, subject: string) =>
    vi.waitFor(
      () => {
        const found = mail.messages.find((message) => message.to.includes(to) && message.subject === subject);
        if (!found) throw new Error(`no mail "${subject}" to ${to} yet`);
        return found;
      },
      { timeout: 5000, interval: 20 },
    );
  const inbox = (who: Browser, query = '') => ok(call(who, 'GET', `/notifications${query}`));

  it('goes round: submitted, commented, changes requested, resubmitted, approved and published', async () => {
    const post = await draft(writer, 'A careful draft');
    const path = `/posts/${post.id}/review`;
    await ok(call(writer, 'GET', path), 404);

    const submitted = await ok(call(writer, 'POST', path, { comment: 'Ready, I think.' }));
    expect(submitted).toMatchObject({
      kind: 'post',
      state: 'in_review',
      resource: { id: post.id, title: 'A careful draft', status: 'draft' },
      submittedBy: { userId: writer.user.id, email: writer.user.email },
      decidedBy: null,
      entries: [{ type: 'submitted', body: 'Ready, I think.', author: { email: writer.user.email } }],
    });
    // Who may publish it is told: the owner and the editor, not the writer, not a reader.
    const toEditor = await mailed(editor.user.email, 'Review requested: A careful draft');
    expect(toEditor.text).toContain(`${writer.user.email} submitted “A careful draft” for review.`);
    expect(toEditor.text).toContain(`https://cms.example.com/dashboard/w/${workspaceId}/posts/${post.id}/edit`);
    expect(toEditor.html).toContain('Ready, I think.');
    const editorInbox = await inbox(editor);
    expect(editorInbox.unread).toBe(1);
    expect(editorInbox.data[0]).toMatchObject({
      type: 'review_submitted',
      review: { kind: 'post', resourceId: post.id, title: 'A careful draft', state: 'in_review' },
      actor: { email: writer.user.email },
      excerpt: 'Ready, I think.',
      readAt: null,
    });
    expect((await inbox(owner)).unread).toBe(1);
    expect((await inbox(writer)).unread).toBe(0);
    expect((await inbox(reader)).unread).toBe(0);

    // Submitted twice: refused while it waits.
    const again = await call(writer, 'POST', path, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().details.reason).toBe('review_open');

    const queue = await ok(call(editor, 'GET', '/reviews'));
    expect(queue.counts).toEqual({ in_review: 1, changes_requested: 0 });
    expect(queue.data).toEqual([
      expect.objectContaining({
        id: submitted.id,
        state: 'in_review',
        comments: 0,
        resource: expect.objectContaining({ id: post.id }),
      }),
    ]);

    await ok(call(editor, 'POST', `${path}/comments`, { body: 'The second paragraph is thin.' }));
    await mailed(writer.user.email, 'New comment on A careful draft');
    const changes = await ok(call(editor, 'POST', `${path}/request-changes`, { comment: 'Add a source, please.' }));
    expect(changes).toMatchObject({ state: 'changes_requested', decidedBy: { email: editor.user.email } });
    expect(changes.entries.map((entry: Json) => entry.type)).toEqual(['submitted', 'comment', 'changes_requested']);
    const writerInbox = await inbox(writer, '?unread=true');
    expect(writerInbox.data.map((item: Json) => item.type)).toEqual(['changes_requested', 'review_comment']);
    expect((await ok(call(editor, 'GET', '/reviews?state=changes_requested'))).data).toHaveLength(1);
    expect((await ok(call(editor, 'GET', '/reviews'))).data).toHaveLength(0);

    // The writer reads one, then the rest; edits, answers and submits again.
    expect((await ok(call(writer, 'POST', '/notifications/read', { ids: [writerInbox.data[0].id] }))).unread).toBe(1);
    expect((await ok(call(writer, 'POST', '/notifications/read', {}))).unread).toBe(0);
    await ok(call(writer, 'PATCH', `/posts/${post.id}`, { title: 'A careful draft, sourced' }));
    await ok(call(writer, 'POST', `${path}/comments`, { body: 'Source added.' }));
    // The editor took part, so a reply reaches them; the owner did not.
    expect((await inbox(editor, '?unread=true')).data[0]).toMatchObject({
      type: 'review_comment',
      excerpt: 'Source added.',
    });
    const resubmitted = await ok(call(writer, 'POST', path, {}));
    expect(resubmitted).toMatchObject({ state: 'in_review', decidedBy: null });

    const approved = await ok(call(editor, 'POST', `${path}/approve`, { comment: 'Lovely.' }));
    expect(approved).toMatchObject({
      state: 'approved',
      resource: { status: 'published', title: 'A careful draft, sourced' },
      decidedBy: { email: editor.user.email },
    });
    const live = await ok(call(reader, 'GET', `/posts/${post.id}`));
    expect(live.status).toBe('published');
    expect(live.publishedAt).not.toBeNull();
    const told = await mailed(writer.user.email, 'Approved: A careful draft, sourced');
    expect(told.text).toContain('approved “A careful draft, sourced” and published it.');
    expect((await inbox(writer, '?unread=true')).data[0]).toMatchObject({
      type: 'approved',
      review: { state: 'approved' },
    });

    // The publication is the post's own write: the event a publish through PATCH records, by the editor.
    const events = await ctx.runtime.database.db
      .selectFrom('content_events')
      .select(['action', 'actor_user_id'])
      .where('resource_id', '=', post.id)
      .orderBy('seq')
      .execute();
    expect(events.at(-1)).toEqual({ action: 'published', actor_user_id: editor.user.id });
    // Decided already: a second approval is refused, and the thread keeps taking comments.
    expect((await call(editor, 'POST', `${path}/approve`, {})).json().details).toMatchObject({
      reason: 'review_closed',
      state: 'approved',
    });
    await ok(call(writer, 'POST', `${path}/comments`, { body: 'Thank you!' }));
  });

  it('holds each step to who may take it', async () => {
    const post = await draft(writer, 'Permissions');
    const path = `/posts/${post.id}/review`;
    // A reader may read a review, but not submit or comment.
    expect((await call(reader, 'POST', path, {})).statusCode).toBe(403);
    await ok(call(writer, 'POST', path, {}));
    await ok(call(reader, 'GET', path));
    expect((await call(reader, 'POST', `${path}/comments`, { body: 'hi' })).statusCode).toBe(403);
    // A contributor cannot decide, not even on their own draft.
    for (const step of ['request-changes', 'approve']) {
      const refused = await call(writer, 'POST', `${path}/${step}`, { comment: 'Fine by me' });
      expect(refused.statusCode, step).toBe(403);
      expect(refused.json().details).toEqual({ permission: 'posts:write' });
    }
    // Another contributor may comment, but only the writer or an editor withdraws.
    const other = await member(ROLES.contributor);
    await ok(call(other, 'POST', `${path}/comments`, { body: 'Nice one.' }));
    expect((await call(other, 'POST', `${path}/withdraw`, {})).statusCode).toBe(403);
    const withdrawn = await ok(call(writer, 'POST', `${path}/withdraw`, { comment: 'Not yet.' }));
    expect(withdrawn.state).toBe('withdrawn');
    expect((await call(writer, 'POST', `${path}/withdraw`, {})).json().details.reason).toBe('review_closed');
    expect((await call(editor, 'POST', `${path}/request-changes`, { comment: 'x' })).json().details.reason).toBe(
      'review_closed',
    );
    // Withdrawn, it may be submitted again.
    expect((await ok(call(writer, 'POST', path, {}))).state).toBe('in_review');
  });

  it('reviews pages alike, and approves without publishing when asked', async () => {
    const page = await draft(writer, 'About us', 'pages');
    const path = `/pages/${page.id}/review`;
    await ok(call(writer, 'POST', path, { comment: 'New about page' }));
    expect((await ok(call(editor, 'GET', '/reviews?kind=page'))).data.map((row: Json) => row.resource.id)).toContain(
      page.id,
    );
    expect(
      (await ok(call(editor, 'GET', '/reviews?kind=post'))).data.map((row: Json) => row.resource.id),
    ).not.toContain(page.id);
    const approved = await ok(call(editor, 'POST', `${path}/approve`, { publish: false }));
    expect(approved).toMatchObject({ state: 'approved', resource: { status: 'draft' } });
    // An editor may ask another for review; they are not told of their own submission.
    const before = (await inbox(editor)).unread;
    const own = await draft(editor, 'An editor asks too');
    await ok(call(editor, 'POST', `/posts/${own.id}/review`, {}));
    expect((await inbox(editor)).unread).toBe(before);
    expect((await inbox(owner, '?unread=true')).data[0]).toMatchObject({
      type: 'review_submitted',
      review: { resourceId: own.id },
      actor: { email: editor.user.email },
    });
    // A member who cannot read pages sees none of their reviews.
    expect((await ok(call(reader, 'GET', '/reviews?state=approved&kind=page'))).data).toEqual([]);
  });

  it('refuses what cannot be reviewed, with nothing changed', async () => {
    const live = await ok(call(editor, 'POST', '/posts', { title: 'Already out', status: 'published' }), 201);
    const notDraft = await call(editor, 'POST', `/posts/${live.id}/review`, {});
    expect(notDraft.statusCode).toBe(409);
    expect(notDraft.json().details).toEqual({ reason: 'not_draft', status: 'published' });
    await ok(call(editor, 'GET', `/posts/${live.id}/review`), 404);

    // Published meanwhile by other means: approving it would publish nothing, so it says so.
    const post = await draft(writer, 'Overtaken');
    await ok(call(writer, 'POST', `/posts/${post.id}/review`, {}));
    await ok(call(editor, 'PATCH', `/posts/${post.id}`, { status: 'published' }));
    const overtaken = await call(editor, 'POST', `/posts/${post.id}/review/approve`, {});
    expect(overtaken.json().details).toEqual({ reason: 'not_draft', status: 'published' });
    expect((await ok(call(editor, 'GET', `/posts/${post.id}/review`))).state).toBe('in_review');
    expect((await ok(call(editor, 'POST', `/posts/${post.id}/review/approve`, { publish: false }))).state).toBe(
      'approved',
    );

    await ok(call(editor, 'GET', `/posts/00000000-0000-4000-8000-000000000000/review`), 404);
    await ok(call(editor, 'POST', `/posts/no-such-post/review`, {}), 404);
    // A deleted draft's review leaves the queue.
    const gone = await draft(writer, 'Soon deleted');
    await ok(call(writer, 'POST', `/posts/${gone.id}/review`, {}));
    await ok(call(editor, 'DELETE', `/posts/${gone.id}`));
    expect((await ok(call(editor, 'GET', '/reviews'))).data.map((row: Json) => row.resource.id)).not.toContain(gone.id);
    await ok(call(editor, 'GET', `/posts/${gone.id}/review`), 404);
  });

  it('answers bad input with 400 and the field', async () => {
    const post = await draft(writer, 'Bad input');
    const path = `/posts/${post.id}/review`;
    await ok(call(writer, 'POST', path, {}));
    const cases: Array<[string, Json, string]> = [
      ['/comments', {}, '/body'],
      ['/comments', { body: '' }, '/body'],
      ['/comments', { body: '   ' }, '/body'],
      ['/comments', { body: 'x'.repeat(5001) }, '/body'],
      ['/comments', { body: 'ok', extra: 1 }, '/extra'],
      ['/request-changes', {}, '/comment'],
      ['/approve', { publish: 'yes' }, '/publish'],
    ];
    for (const [step, body, pointer] of cases) {
      const refused = await call(editor, 'POST', `${path}${step}`, body);
      expect(refused.statusCode, `${step} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
      expect(refused.json().details.issues.map((issue: Json) => issue.path)).toContain(pointer);
    }
    for (const query of ['?state=open', '?limit=0', '?limit=101', '?before=nonsense', '?kind=tag']) {
      const refused = await call(editor, 'GET', `/reviews${query}`);
      expect(refused.statusCode, query).toBe(400);
    }
    expect((await call(editor, 'POST', '/notifications/read', { ids: ['not-a-uuid'] })).statusCode).toBe(400);
    expect((await call(editor, 'POST', '/notifications/read', { ids: [] })).statusCode).toBe(400);
    // Nothing was written by any of them.
    expect((await ok(call(editor, 'GET', path))).entries).toHaveLength(1);
  });

  it('keeps each workspace to itself', async () => {
    const post = await draft(writer, 'Mine alone');
    await ok(call(writer, 'POST', `/posts/${post.id}/review`, {}));
    const stranger = await signIn(ctx, await userWithPassword(ctx));
    const theirs = (await send(ctx, stranger, 'POST', '/workspaces', { name: 'Elsewhere' })).json().id;
    // Their own workspace's review routes know nothing of this post; this workspace's do not let them in.
    expect((await send(ctx, stranger, 'GET', `/workspaces/${theirs}/posts/${post.id}/review`)).statusCode).toBe(404);
    expect((await send(ctx, stranger, 'GET', `/workspaces/${workspaceId}/posts/${post.id}/review`)).statusCode).toBe(
      404,
    );
    expect((await send(ctx, stranger, 'GET', `/workspaces/${theirs}/reviews`)).json().data).toEqual([]);
    expect((await send(ctx, stranger, 'GET', `/workspaces/${theirs}/notifications`)).json()).toEqual({
      data: [],
      unread: 0,
    });
  });

  it("forgets a removed member's notifications, and prunes them with the audit log", async () => {
    const leaving = await member(ROLES.editor);
    const post = await draft(writer, 'Told before leaving');
    await ok(call(writer, 'POST', `/posts/${post.id}/review`, {}));
    const db = ctx.runtime.database.db;
    const held = (userId?: string) =>
      db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('workspace_id', '=', workspaceId)
        .$if(userId !== undefined, (query) => query.where('user_id', '=', userId!))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.count));
    expect(await held(leaving.user.id)).toBe(1);
    await ok(call(owner, 'DELETE', `/members/${leaving.user.id}`));
    expect(await held(leaving.user.id)).toBe(0);

    expect(await held()).toBeGreaterThan(0);
    // Two years on, a year's retention leaves none of today's.
    const pruned = await pruneAudit(ctx.runtime.database, 365, {
      now: Date.now() + 2 * 365 * 86_400_000,
      companions: [reviewsRepository.pruneNotifications],
    });
    expect(pruned.companions).toBeGreaterThan(0);
    expect(await held()).toBe(0);
    expect((await inbox(editor)).data).toEqual([]);
  });

  describe('lists', () => {
    it('pages the queue by its cursor, newest activity first, in a fixed number of queries', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const post = await draft(writer, `Queued ${i}`);
        await ok(call(writer, 'POST', `/posts/${post.id}/review`, {}));
        ids.unshift(post.id);
      }
      const seen: string[] = [];
      let next: string | null = null;
      do {
        const page: Json = await ok(call(editor, 'GET', `/reviews?limit=2&mine=false${next ? `&before=${next}` : ''}`));
        seen.push(...page.data.map((row: Json) => row.resource.id));
        next = page.next;
      } while (next);
      expect(seen.slice(0, 5)).toEqual(ids);
      expect(new Set(seen).size).toBe(seen.length);
      // "Submitted by me": the writer's own, with counts of their own; none of them for the editor.
      const mine = await ok(call(writer, 'GET', '/reviews?mine=true&limit=100'));
      expect(mine.data.map((row: Json) => row.resource.id).slice(0, 5)).toEqual(ids);
      expect(mine.data.every((row: Json) => row.submittedBy.userId === writer.user.id)).toBe(true);
      expect(mine.counts.in_review).toBe(mine.data.length);
      const editors = await ok(call(editor, 'GET', '/reviews?mine=true&limit=100'));
      expect(editors.data.map((row: Json) => row.resource.id)).not.toContain(ids[0]);
      expect(editors.counts.in_review).toBe(editors.data.length);

      const stats = ctx.runtime.database.stats;
      const cost = async (path: string) => {
        const before = stats.queries;
        await ok(call(editor, 'GET', path));
        return stats.queries - before;
      };
      expect(await cost('/reviews?limit=1')).toBe(await cost('/reviews?limit=100'));
      expect(await cost('/notifications?limit=1')).toBe(await cost('/notifications?limit=100'));
    });

    it('walks an index for the queue and the inbox, never a sort', async () => {
      const db = ctx.runtime.database.db;
      const plans = [
        [
          'reviews_queue_idx',
          reviewQueueQuery(db, workspaceId, { state: 'in_review', kinds: ['post', 'page'], limit: 51 }),
        ],
        [
          'reviews_queue_idx',
          reviewQueueQuery(db, workspaceId, {
            state: 'changes_requested',
            kinds: ['post'],
            before: { updatedAt: new Date().toISOString(), id: crypto.randomUUID() },
            limit: 51,
          }),
        ],
        ['notifications_inbox_idx', inboxQuery(db, workspaceId, editor.user.id, { unread: false, limit: 30 })],
        ['notifications_inbox_idx', inboxQuery(db, workspaceId, editor.user.id, { unread: true, limit: 30 })],
      ] as const;
      for (const [index, query] of plans) {
        const plan = await queryPlan(db, dialect, query);
        if (dialect === 'sqlite') {
          expect(plan, index).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}`));
          expect(plan, index).not.toMatch(/TEMP B-TREE/);
        } else {
          expect(plan, index).toMatch(new RegExp(`Index Scan Backward using ${index}`));
          expect(plan, index).not.toMatch(/\bSort\b/);
        }
      }
    });
  });
});
