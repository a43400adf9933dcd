import { cliJson, EXTERNAL, type Env, type ServerProcess } from '../e2e/helpers.js';

/** Inline Markdown and markup that must come out as text: the post view never renders stored HTML. */
export const HOSTILE_TEXT =
  'Plain <img src=x onerror="alert(1)"> with **bold**, `code` and [a bad link](javascript:alert(1)).';

export interface SeededContent {
  key: string;
  everyBlockPostId: string;
}

async function call<T>(server: ServerProcess, key: string, method: string, path: string, body: unknown): Promise<T> {
  const response = await server.fetch(`${EXTERNAL}${path}`, {
    method,
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * Demo content through the real CLI (`quire seed`: media, authors, a category tree, tags, posts) and the
 * external API (pages, redirects, link-health reports, and one post holding every block type).
 */
export async function seedContent(
  server: ServerProcess,
  env: Env,
  workspace: string,
  ownerEmail: string,
): Promise<SeededContent> {
  await cliJson(['seed', '--workspace', workspace, '--posts', '30'], env);
  const { key } = await cliJson<{ key: string }>(
    ['key', 'create', '--workspace', workspace, '--email', ownerEmail, '--name', 'Seeding'],
    env,
  );

  const media = (await (
    await server.fetch(`${EXTERNAL}/media?pageSize=1`, { headers: { 'X-API-Key': key } })
  ).json()) as { data: Array<{ id: string }> };
  const mediaId = media.data[0]?.id;
  if (!mediaId) throw new Error('quire seed made no media');

  for (const [title, status] of [
    ['About us', 'published'],
    ['Contact', 'draft'],
  ] as const) {
    await call(server, key, 'POST', '/pages', {
      title,
      status,
      bodyJson: [{ type: 'paragraph', text: `The ${title} page.` }],
    });
  }
  await call(server, key, 'POST', '/redirects', { fromPath: '/old-blog', toPath: '/blog' });
  await call(server, key, 'POST', '/redirects', {
    fromPath: '/2019/hello',
    toPath: '/blog/hello-world',
    statusCode: 302,
  });
  for (const path of [
    '/missing',
    '/missing',
    '/docs/old-guide',
    '/a/very/long/path/that/should/wrap/nicely/on/a/narrow/phone/screen/without/scrolling',
  ]) {
    await call(server, key, 'POST', '/link-health', { path, statusCode: 404 });
  }

  const post = await call<{ id: string }>(server, key, 'POST', '/posts', {
    title: 'Every block type',
    slug: 'every-block-type',
    excerpt: 'One post with all thirteen block types, for the dashboard’s read-only view.',
    status: 'draft',
    bodyJson: [
      { type: 'paragraph', text: HOSTILE_TEXT },
      { type: 'heading', level: 2, text: 'Getting started' },
      { type: 'list', style: 'bullet', items: ['First *point*', 'Second point'] },
      { type: 'list', style: 'ordered', items: ['Step one', 'Step two'] },
      { type: 'image', mediaId, alt: 'A seeded picture', caption: 'A caption' },
      { type: 'code', language: 'ts', code: 'const answer: number = 42;\nconsole.log(answer);' },
      { type: 'quote', text: 'Simplicity is **prerequisite** for reliability.', attribution: 'Edsger W. Dijkstra' },
      { type: 'divider' },
      { type: 'heading', level: 3, text: 'Details' },
      { type: 'callout', variant: 'warning', title: 'Careful', body: 'Back up *first*.' },
      { type: 'video_embed', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', title: 'A video' },
      { type: 'tweet_embed', url: 'https://x.com/example/status/1234567890' },
      { type: 'faq', items: [{ question: 'Is it safe?', answer: 'Yes, <b>quite</b>.' }] },
      {
        type: 'cta',
        title: 'Subscribe',
        body: 'Get new posts by email.',
        linkUrl: 'https://example.com/subscribe',
        linkLabel: 'Sign up',
        variant: 'default',
      },
      { type: 'key_takeaways', items: ['Blocks are typed', 'Nothing renders as HTML'] },
    ],
  });
  return { key, everyBlockPostId: post.id };
}
