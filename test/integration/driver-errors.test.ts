import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translateDriverError } from '../../src/db/errors.js';
import type { AppError } from '../../src/errors.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { insertAuthor, insertCategory, insertTag } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/database.js';

describeEachDialect(
  'driver errors: a unique violation is a 409 naming the field, alike on both dialects',
  (dialect) => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await buildTestApp(dialect);
    });
    afterAll(() => ctx?.close());

    const db = () => ctx.runtime.database.db;

    async function translated(statement: () => Promise<unknown>): Promise<AppError | undefined> {
      try {
        await statement();
      } catch (error) {
        return translateDriverError(ctx.runtime.database.dialect, error);
      }
      throw new Error('the statement succeeded');
    }

    it('names slug, fromPath and email for the indexes that hold them', async () => {
      const workspace = await ctx.createWorkspace();
      await insertTag(db(), workspace.id, { slug: 'taken' });
      const slug = await translated(() => insertTag(db(), workspace.id, { slug: 'taken' }));
      expect(slug).toMatchObject({ status: 409, code: 'CONFLICT', details: { field: 'slug' } });

      const now = new Date().toISOString();
      const redirect = () =>
        db()
          .insertInto('redirects')
          .values({
            id: crypto.randomUUID(),
            workspace_id: workspace.id,
            from_path: '/old',
            to_path: '/new',
            status_code: 301,
            created_at: now,
            updated_at: now,
          })
          .execute();
      await redirect();
      expect(await translated(redirect)).toMatchObject({ status: 409, details: { field: 'fromPath' } });

      const email = await translated(() => ctx.createUser(workspace.owner.email));
      expect(email).toMatchObject({ status: 409, details: { field: 'email' } });
      expect(email?.message).toBe('The email was taken by a concurrent write');
    });

    it('a foreign key broken by a write is the 400 of a reference check, naming the field where the driver says', async () => {
      const workspace = await ctx.createWorkspace();
      const gone = crypto.randomUUID();
      const author = await insertAuthor(db(), workspace.id);
      const avatar = await translated(() =>
        db().updateTable('authors').set({ avatar_media_id: gone }).where('id', '=', author).execute(),
      );
      const parent = await insertCategory(db(), workspace.id, { slug: 'parent' });
      const child = await translated(() => insertCategory(db(), workspace.id, { slug: 'child', parentId: gone }));
      await insertCategory(db(), workspace.id, { slug: 'kept-child', parentId: parent });
      const inUse = await translated(() => db().deleteFrom('categories').where('id', '=', parent).execute());
      if (dialect === 'postgres') {
        expect(avatar).toMatchObject({
          status: 400,
          details: {
            issues: [{ in: 'body', path: '/avatarMediaId', message: 'no media with this id in this workspace' }],
          },
        });
        expect(child).toMatchObject({
          status: 400,
          details: {
            issues: [{ in: 'body', path: '/parentId', message: 'no category with this id in this workspace' }],
          },
        });
        expect(inUse).toMatchObject({ status: 409, code: 'CONFLICT', details: { reason: 'in_use' } });
      } else {
        // SQLite names neither the table nor the column; its writes run one at a time, so no race gets here.
        for (const refused of [avatar, child, inUse])
          expect(refused).toMatchObject({ status: 400, details: { issues: [{ in: 'body', path: '' }] } });
      }
    });

    it('leaves every other error alone', async () => {
      const missing = await translated(() =>
        db()
          .selectFrom('no_such_table' as 'tags')
          .selectAll()
          .execute(),
      );
      expect(missing).toBeUndefined();
    });
  },
);
