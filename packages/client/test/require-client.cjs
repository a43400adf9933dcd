// Loaded by commonjs.test.ts in a plain Node process: what a CommonJS program sees when it requires the
// package by name (package.json `exports`, `require` condition). It prints one JSON line for the test.
'use strict';
const assert = require('node:assert/strict');
const client = require('@quire/client');

const { Quire, QuireContent, QuireError } = client;

async function main() {
  const quire = new Quire({ apiKey: process.env.QUIRE_API_KEY, baseUrl: process.env.QUIRE_URL });
  const page = await quire.posts.list({ pageSize: 2 });
  const post = await quire.posts.get(page.data[0].slug);
  const missing = await quire.posts.get('no-such-post').catch((error) => error);
  assert.ok(missing instanceof QuireError);
  const content = new QuireContent({ contentKey: process.env.QUIRE_CONTENT_KEY, baseUrl: process.env.QUIRE_URL });
  const published = await quire.posts.list({ status: 'published', pageSize: 1 });
  const contentPage = await content.posts.list({ pageSize: 1 });
  process.stdout.write(
    `${JSON.stringify({
      resolved: require.resolve('@quire/client'),
      exports: Object.keys(client).sort(),
      total: page.total,
      slug: post.slug,
      missing: { code: missing.code, status: missing.status },
      content: { total: contentPage.total, published: published.total },
    })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
