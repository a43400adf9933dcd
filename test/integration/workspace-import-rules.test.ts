import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMediaStorage, type MediaStorage } from '../../src/modules/media/storage/storage.js';
import { exportWorkspace } from '../../src/operate/workspace/export.js';
import { importWorkspace } from '../../src/operate/workspace/import.js';
import { buildTestApp, type TestContext } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { workspaceFingerprint } from '../helpers/fingerprint.js';
import { archiveEntries, fillWorkspace, rewriteArchive } from '../helpers/operate.js';

type Row = Record<string, unknown>;
type Entries = Array<{ name: string; body: Buffer }>;

/**
 * Edits the row of `table` whose id is `id` (or that `id` picks; null: the first), in an archive whose checksums
 * are then made to match.
 */
function editRow(table: string, id: string | null | ((row: Row) => boolean), edit: (row: Row) => void) {
  const which = (row: Row) => id === null || (typeof id === 'function' ? id(row) : row.id === id);
  return (entries: Entries): Entries => {
    let edited = false;
    return entries.map((entry) => {
      if (edited || !entry.name.startsWith(`tables/${table}/`)) return entry;
      const lines = entry.body
        .toString()
        .split('\n')
        .map((line) => {
          if (edited || line === '') return line;
          const row = JSON.parse(line) as Row;
          if (!which(row)) return line;
          edited = true;
          edit(row);
          return JSON.stringify(row).replace(DEEP, nested(5000));
        });
      return { ...entry, body: Buffer.from(lines.join('\n')) };
    });
  };
}

/** Written as text: serializing so deep a value would overflow the stack first. */
const DEEP = '"deep structured data"';
const nested = (depth: number) => `${'{"next":'.repeat(depth - 1)}{"leaf":true}${'}'.repeat(depth - 1)}`;

/*
 * Archives edited by hand, their trailer recomputed, holding rows the API's writes would refuse: each is
 * refused before anything is written, naming the table, the row's id and the field.
 */
describeEachDialect('quire import holds every row to the API’s rules', (dialect) => {
  let ctx: TestContext;
  let other: TestContext;
  let otherStorage: MediaStorage;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-import-rules-'));
  const file = path.join(dir, 'source.tgz');
  let target: { id: string; slug: string };
  let owner: string;
  let photo: Row;
  /** The archive's rows of a table, as exported. */
  let archived: (table: string) => Row[];

  beforeAll(async () => {
    ctx = await buildTestApp(dialect);
    other = await buildTestApp(dialect);
    otherStorage = createMediaStorage(other.config);
    const { workspace, key } = await ctx.ownerKey();
    await fillWorkspace(ctx, workspace, key);
    await exportWorkspace({
      database: ctx.runtime.database,
      storage: createMediaStorage(ctx.config),
      workspace: workspace.slug,
      out: file,
    });
    owner = (await other.createUser()).email;
    target = await other.createWorkspace();
    const entries = await archiveEntries(file);
    archived = (table) =>
      entries
        .filter((entry) => entry.name.startsWith(`tables/${table}/`))
        .flatMap((entry) => entry.body.toString().split('\n').filter(Boolean))
        .map((line) => JSON.parse(line) as Row);
    photo = (await ctx.runtime.database.db
      .selectFrom('media')
      .selectAll()
      .where('filename', 'like', 'photo%')
      .executeTakeFirstOrThrow()) as Row;
  });
  afterAll(async () => {
    await ctx?.close();
    await other?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const mediaFiles = () =>
    fs
      .readdirSync(path.join(other.config.dataDir, 'media'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  const workspaces = () => other.runtime.database.db.selectFrom('workspaces').select('id').execute();
  const installation = async () => [
    await workspaceFingerprint(other.runtime.database.db, target.id),
    await workspaces(),
    mediaFiles(),
  ];

  /** The edited archive is refused, by a dry run and by an import into a workspace or a new one, writing nothing. */
  async function refused(name: string, edit: (entries: Entries) => Entries, message: RegExp) {
    const edited = path.join(dir, `${name}.tgz`);
    await rewriteArchive(file, edited, edit);
    const before = await installation();
    const run = (options: { workspace?: string; dryRun?: boolean }) =>
      importWorkspace(other.runtime.database, otherStorage, { file: edited, owner, ...options });
    await expect(run({ workspace: target.slug, dryRun: true })).rejects.toThrow(message);
    await expect(run({ workspace: target.slug })).rejects.toThrow(message);
    await expect(run({})).rejects.toThrow(message);
    expect(await installation()).toEqual(before);
  }

  const refusal = (table: string, id: string, field: string) =>
    new RegExp(`holds what the API would refuse: ${table} row ${id}, field ${field}`);

  const firstId = (table: string) => String(archived(table)[0]!.id);

  it('a post whose body_json is not a list of blocks, or holds an unknown block type', async () => {
    const id = firstId('posts');
    await refused(
      'body-object',
      editRow('posts', id, (row) => void (row.body_json = { type: 'paragraph', text: 'not a list' })),
      refusal('posts', id, 'body_json must be array'),
    );
    await refused(
      'block-type',
      editRow('posts', id, (row) => void (row.body_json = [{ type: 'marquee', text: 'Hi' }])),
      refusal('posts', id, 'body_json/0/type must be equal to one of the allowed values'),
    );
  });

  it('a post whose seo is a string, whose status is unknown, or whose reading time is negative', async () => {
    await refused(
      'seo-string',
      editRow('posts', firstId('posts'), (row) => void (row.seo = 'fast')),
      refusal('posts', firstId('posts'), 'seo must be object'),
    );
    await refused(
      'status',
      editRow('posts', firstId('posts'), (row) => void (row.status = 'live')),
      refusal('posts', firstId('posts'), 'status '),
    );
    await refused(
      'scheduled',
      editRow('posts', firstId('posts'), (row) => void (row.status = 'scheduled')),
      refusal('posts', firstId('posts'), 'status: scheduled is not supported'),
    );
    await refused(
      'reading-time',
      editRow('posts', firstId('posts'), (row) => void (row.reading_time_min = -3)),
      refusal('posts', firstId('posts'), 'reading_time_min must be >= 1'),
    );
  });

  it('a post whose structured_data nests 5,000 levels deep', async () => {
    const id = String(archived('posts').find((row) => row.structured_data !== null)!.id);
    await refused(
      'deep',
      editRow('posts', id, (row) => void (row.structured_data = JSON.parse(DEEP))),
      refusal('posts', id, 'structured_data(/next)+ nests deeper than 32 levels'),
    );
  });

  it('a post whose body_text or word count is not what its body derives', async () => {
    const id = firstId('posts');
    await refused(
      'body-text',
      editRow('posts', id, (row) => void (row.body_text = 'x'.repeat(1_000_000))),
      refusal('posts', id, 'body_text: is not what body_json derives'),
    );
    await refused(
      'word-count',
      editRow('posts', id, (row) => void (row.word_count = Number(row.word_count) + 1)),
      refusal('posts', id, 'word_count: is not what body_json derives'),
    );
  });

  it('a tag name just over the API’s limit', async () => {
    await refused(
      'tag-name',
      editRow('tags', firstId('tags'), (row) => void (row.name = 'x'.repeat(101))),
      refusal('tags', firstId('tags'), 'name must NOT have more than 100 characters'),
    );
  });

  it('a javascript: URL in the site settings', async () => {
    await refused(
      'settings-url',
      editRow('site_settings', null, (row) => void (row.site_url = 'javascript:alert(1)')),
      /holds what the API would refuse: site_settings, field site_url: siteUrl must be an absolute http or https URL/,
    );
  });

  it('a redirect to a javascript: URL, a revision a restore could not write, a logo the archive lacks', async () => {
    const redirect = firstId('redirects');
    await refused(
      'redirect',
      editRow('redirects', redirect, (row) => void (row.to_path = 'javascript:alert(1)')),
      refusal('redirects', redirect, 'to_path: toPath must be a path or an http\\(s\\) URL'),
    );
    const revision = archived('post_revisions')[0]!;
    await refused(
      'revision',
      editRow(
        'post_revisions',
        (row) => row.resource_id === revision.resource_id && row.n === revision.n,
        (row) => void (row.fields = { ...(row.fields as Row), bodyJson: { text: 'not a list' } }),
      ),
      refusal(
        'post_revisions',
        `resource_id ${String(revision.resource_id)}, n ${String(revision.n)}`,
        'fields/bodyJson must be array',
      ),
    );
    await refused(
      'logo',
      editRow('site_settings', null, (row) => void (row.logo_media_id = '00000000-0000-4000-8000-000000000000')),
      /site_settings, field logo_media_id names a media row \(00000000-0000-4000-8000-000000000000\) that the archive does not hold/,
    );
  });

  it('a media row whose size_bytes is not its file’s, or whose type is not its bytes’', async () => {
    const id = String(photo.id);
    await refused(
      'size',
      editRow('media', id, (row) => void (row.size_bytes = 987654321)),
      refusal('media', id, `size_bytes says 987654321 bytes; its file has ${String(photo.size_bytes)}`),
    );
    // A PDF under the photo's name, its size recorded right: only the type is wrong.
    const pdf = Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    await refused(
      'type',
      (entries) =>
        editRow(
          'media',
          id,
          (row) => void (row.size_bytes = pdf.length),
        )(entries).map((entry) => (entry.name.startsWith(`files/${id}/`) ? { ...entry, body: pdf } : entry)),
      refusal('media', id, 'mime_type says image/png; the bytes of its file are application/pdf'),
    );
    await refused(
      'focal-point',
      editRow('media', id, (row) => void (row.focal_point = { x: 1.5, y: 0.5 })),
      refusal('media', id, 'focal_point/x must be <= 1'),
    );
  });

  it('imports the archive as exported, every row passing the same checks', async () => {
    const { plan } = await importWorkspace(other.runtime.database, otherStorage, { file, workspace: target.slug });
    expect(plan.tables.posts).toMatchObject({ create: 4 });
  });
});
