import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/security/roles.js';
import { buildTestApp, EXTERNAL, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { send, signIn, userWithPassword } from '../helpers/dashboard.js';
import { COMMAND_LINE } from '../../src/audit/audit-log.js';

type Json = Record<string, unknown>;

/** A contributor writes drafts and can move nothing out of draft; posts:write answers as it always did. */
describeEachDialect('roles: posts:draft and pages:draft', (dialect) => {
  let ctx: TestContext;
  let ownerKey: string;
  let contributorKey: string;
  let workspace: Awaited<ReturnType<TestContext['ownerKey']>>['workspace'];
  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    ({ workspace, key: ownerKey } = await ctx.ownerKey());
    ({ key: contributorKey } = await ctx.memberKey(ROLES.contributor, workspace));
  });
  afterAll(() => ctx?.close());

  const api = (key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Json) =>
    ctx.app.inject({
      method,
      url: `${EXTERNAL}${url}`,
      headers: { 'x-api-key': key },
      ...(payload ? { payload } : {}),
    });

  for (const kind of ['posts', 'pages'] as const) {
    it(`${kind}: creates and edits drafts, keeping them drafts`, async () => {
      const created = await api(contributorKey, 'POST', `/${kind}`, { title: 'A first draft' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().status).toBe('draft');
      const id = created.json().id as string;
      const explicit = await api(contributorKey, 'POST', `/${kind}`, { title: 'Another', status: 'draft' });
      expect(explicit.statusCode).toBe(201);
      const edited = await api(contributorKey, 'PATCH', `/${kind}/${id}`, { title: 'A better draft', status: 'draft' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ title: 'A better draft', status: 'draft' });
      if (kind === 'posts') {
        // The studio saves a draft's tags through the tag routes.
        const tag = (await api(ownerKey, 'POST', '/tags', { name: `Tag ${Date.now()}` })).json();
        const tagged = await api(contributorKey, 'POST', `/posts/${id}/tags`, { tagIds: [tag.id] });
        expect(tagged.statusCode, tagged.body).toBe(200);
        expect((await api(contributorKey, 'DELETE', `/posts/${id}/tags`, { tagIds: [tag.id] })).statusCode).toBe(200);
      }
    });

    it(`${kind}: refuses publishing, any status move and edits of what is live, changing nothing`, async () => {
      const published = await api(contributorKey, 'POST', `/${kind}`, { title: 'Straight out', status: 'published' });
      expect(published.statusCode).toBe(403);
      expect(published.json()).toMatchObject({ code: 'FORBIDDEN', details: { permission: `${kind}:write` } });
      const listed = await api(ownerKey, 'GET', `/${kind}?q=Straight`);
      expect(listed.json().total ?? listed.json().items?.length).toBe(0);

      const draft = (await api(contributorKey, 'POST', `/${kind}`, { title: 'Wants out' })).json();
      // A page is draft or published only.
      for (const status of kind === 'posts' ? ['published', 'archived'] : ['published']) {
        const moved = await api(contributorKey, 'PATCH', `/${kind}/${draft.id}`, { status });
        expect(moved.statusCode, status).toBe(403);
      }
      expect((await api(ownerKey, 'GET', `/${kind}/${draft.id}`)).json().status).toBe('draft');

      const live = (await api(ownerKey, 'POST', `/${kind}`, { title: 'Live already', status: 'published' })).json();
      const touched = await api(contributorKey, 'PATCH', `/${kind}/${live.id}`, { title: 'Changed by a contributor' });
      expect(touched.statusCode).toBe(403);
      expect(touched.json().message).toMatch(new RegExp(`${kind}:write`));
      if (kind === 'posts') {
        const tag = (await api(ownerKey, 'POST', '/tags', { name: `Live tag ${Date.now()}` })).json();
        expect((await api(contributorKey, 'POST', `/posts/${live.id}/tags`, { tagIds: [tag.id] })).statusCode).toBe(
          403,
        );
        await api(ownerKey, 'PATCH', `/posts/${live.id}`, { status: 'archived' });
        expect((await api(contributorKey, 'PATCH', `/posts/${live.id}`, { title: 'x' })).statusCode).toBe(403);
      }
      expect((await api(ownerKey, 'GET', `/${kind}/${live.id}`)).json().title).toBe('Live already');

      // Deleting, even a draft, is a write of its own.
      expect((await api(contributorKey, 'DELETE', `/${kind}/${draft.id}`)).statusCode).toBe(403);
    });
  }

  it('posts:write answers as before: creating published, moving status, editing live posts', async () => {
    const { key } = await ctx.memberKey(['posts:read', 'posts:write'], workspace);
    const created = await api(key, 'POST', '/posts', { title: 'Writer', status: 'published' });
    expect(created.statusCode).toBe(201);
    expect((await api(key, 'PATCH', `/posts/${created.json().id}`, { status: 'archived' })).statusCode).toBe(200);
    // Holding both is holding write.
    const { key: both } = await ctx.memberKey(['posts:read', 'posts:write', 'posts:draft'], workspace);
    expect((await api(both, 'POST', '/posts', { title: 'Both', status: 'published' })).statusCode).toBe(201);
  });

  it('neither draft nor write: the route refuses before anything is read', async () => {
    const { key } = await ctx.memberKey(['posts:read'], workspace);
    const refused = await api(key, 'POST', '/posts', { title: 'No' });
    expect(refused.statusCode).toBe(403);
    // The draft permission of pages does not open posts.
    const { key: pagesOnly } = await ctx.memberKey(['posts:read', 'pages:draft'], workspace);
    expect((await api(pagesOnly, 'POST', '/posts', { title: 'No' })).statusCode).toBe(403);
  });

  it('holds a contributor signed in to the dashboard to drafts alike', async () => {
    const user = await userWithPassword(ctx);
    await ctx.runtime.services.accounts.addMember(workspace.id, user.email, [...ROLES.contributor], COMMAND_LINE);
    const browser = await signIn(ctx, user);
    const base = `/workspaces/${workspace.id}`;
    const draft = await send(ctx, browser, 'POST', `${base}/posts`, { title: 'From the studio' });
    expect(draft.statusCode, draft.body).toBe(201);
    const publish = await send(ctx, browser, 'PATCH', `${base}/posts/${draft.json().id}`, { status: 'published' });
    expect(publish.statusCode).toBe(403);
  });
});
