// Loaded by commonjs.test.ts in a plain Node process: what a CommonJS program sees when it requires the
// package by name (package.json `exports`, `require` condition). It prints one JSON line for the test.
'use strict';
const assert = require('node:assert/strict');
const client = require('@quire/client');

const { Quire, QuireError } = client;

async function main() {
  const quire = new Quire({ apiKey: process.env.QUIRE_API_KEY, baseUrl: process.env.QUIRE_URL });
  const page = await quire.posts.list({ pageSize: 2 });
  const post = await quire.posts.get(page.data[0].slug);
  const missing = await quire.posts.get('no-such-post').catch((error) => error);
  assert.ok(missing instanceof QuireError);
  process.stdout.write(
    `${JSON.stringify({
      resolved: require.resolve('@quire/client'),
      exports: Object.keys(client).sort(),
      total: page.total,
      slug: post.slug,
      missing: { code: missing.code, status: missing.status },
    })}\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
