import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import contentWrites from './eslint/content-writes.js';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'coverage/',
      'dashboard/dist/',
      'packages/*/dist/',
      'test-results/',
      // What the starter's build and sync make.
      'starters/*/dist/',
      'starters/*/.builds/',
      'starters/*/.astro/',
      'starters/*/.quire/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      // Prettier wraps code at 120; comments it leaves alone. Long strings (test titles, messages, data) are
      // kept whole rather than cut into pieces no one can search for.
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    // The one write path (src/writes/content-write.ts): content events are recorded there alone, and the
    // versions they move are moved by the database (migration 0011), never by a module.
    files: ['src/**/*.ts'],
    ignores: ['src/writes/**', 'src/db/migrations/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name=/^(insertInto|updateTable|deleteFrom)$/][arguments.0.value='content_events']",
          message: 'Content events are recorded by contentWrite (src/writes/content-write.ts) only.',
        },
        {
          selector:
            'CallExpression[callee.property.name=/^(insertInto|updateTable|deleteFrom)$/][arguments.0.value=/^(post|page)_revisions$/]',
          message: 'Revisions are recorded by contentWrite (src/writes/revisions.ts) only.',
        },
        {
          selector:
            "CallExpression[callee.property.name='insertInto'][arguments.0.value=/^webhook_(deliveries|events)$/]",
          message: 'Webhook deliveries enter the outbox through src/writes/webhook-outbox.ts only.',
        },
        {
          selector:
            "CallExpression[callee.property.name='set'] Property[key.name=/^(content_version|embeds_version)$/]",
          message: 'The versions move with the content events (migration 0011); write through contentWrite.',
        },
        {
          selector: 'TemplateElement[value.raw=/(content|embeds)_version\\s*=/]',
          message: 'The versions move with the content events (migration 0011); write through contentWrite.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/writes/content-events.repository.js'],
              message: 'Content events are recorded by contentWrite (src/writes/content-write.ts) only.',
            },
            {
              group: ['**/writes/webhook-outbox.repository.js'],
              message: 'Webhook deliveries enter the outbox through src/writes/webhook-outbox.ts only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Content tables are written inside contentWrite alone (eslint/content-writes.js says how it is told).
    // Named exceptions: migrations change the schema and backfill columns, which is no content write and
    // must record no event; quire migrate-to copies a whole database, its events and revisions included, into
    // an empty one, where recording new events would duplicate the copied ones.
    files: ['src/**/*.ts'],
    ignores: ['src/db/migrations/**', 'src/operate/move/**', 'src/**/*.test.ts'],
    plugins: { 'content-writes': contentWrites },
    rules: { 'content-writes/inside-content-write': 'error' },
  },
  {
    // Tables named at run time that are not content: the revision tables (the write path's own) and the
    // multi-row insert, whose callers name their table and are held to the rule where they call it.
    files: ['src/writes/revisions.repository.ts', 'src/db/insert-rows.ts'],
    plugins: { 'content-writes': contentWrites },
    rules: { 'content-writes/inside-content-write': ['error', { allowDynamicTables: true }] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/writes/content-write.ts'],
    plugins: { 'content-writes': contentWrites },
    rules: { 'content-writes/no-cast': 'error' },
  },
  // Generated from the OpenAPI document (npm run openapi).
  {
    files: ['packages/client/src/schema.d.ts', 'packages/client/src/content-schema.d.ts'],
    rules: { 'max-len': 'off' },
  },
  {
    files: ['bin/**/*.js', 'scripts/**/*.mjs', 'packages/*/scripts/**/*.mjs', 'bench/**/*.mjs', 'starters/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', fetch: 'readonly', performance: 'readonly' } },
  },
  {
    // The starter runs on Node as a site of its own: its scripts print their reports, and it uses the platform's
    // fetch and Response.
    files: ['starters/**/*.mjs', 'starters/**/*.ts'],
    languageOptions: {
      globals: {
        process: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        AbortSignal: 'readonly',
        console: 'readonly',
      },
    },
    rules: { 'no-console': 'off' },
  },
  // CommonJS programs (the client's require test): require is how they load modules.
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
