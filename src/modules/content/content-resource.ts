import type { Kysely } from 'kysely';
import type { ColumnMap } from '../../db/columns.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { RowLock } from '../../db/locks.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { claimSlug } from '../../shared/slug-claim.js';
import { nowIso } from '../../shared/time.js';
import { contentWrite } from '../../writes/content-write.js';
import { checkVersion, type Version, type VersionCondition } from '../../writes/versions.js';

type Executor = Kysely<Database>;
type Writer = Parameters<typeof contentWrite>[1];

/** The row columns every post and page has, which the shared rules read. */
interface ContentRow {
  id: string;
  slug: string;
  title: string;
  updated_at: string;
}

/** What the shared rules ask of a post's or a page's repository. */
export interface ContentRepository<Row extends ContentRow> {
  findByIdOrSlug(db: Executor, workspaceId: string, idOrSlug: string, lock?: RowLock): Promise<Row | undefined>;
  takenSlugs(db: Executor, workspaceId: string, candidates: string[]): Promise<Set<string>>;
  update(
    db: Executor,
    workspaceId: string,
    row: Pick<Row, 'id' | 'updated_at'>,
    patch: { deleted_at: string },
    now: string,
  ): Promise<Version>;
}

/**
 * What posts and pages share as resources written by slug and version, each rule once: a live row found by id
 * or slug (locked on PostgreSQL for a write, until its transaction ends), a slug claimed free, If-Match, the
 * first publishedAt, and the soft delete. Each service keeps its own rules (statuses, bodies, references).
 */
export function contentResource<
  Row extends ContentRow,
  Answer extends { deletedAt: string | null },
  Body extends { slug?: string | undefined },
>(
  database: DatabaseHandle,
  resource: {
    type: 'post' | 'page';
    /** Its column map (db/columns.ts). */
    columns: ColumnMap<Body>;
    /** As errors name it: `Post not found`. */
    label: 'Post' | 'Page';
    repo: ContentRepository<Row>;
    present(executor: Executor, workspaceId: string, row: Row): Promise<Answer>;
    /** As a GET serializes the answer, for the ETag an If-Match may name. */
    serialize(answer: Answer): string;
  },
) {
  const { dialect } = database;
  const { type, label, columns, repo, present, serialize } = resource;

  async function require(
    executor: Executor,
    workspaceId: string,
    idOrSlug: string,
    lock?: 'noKeyUpdate',
  ): Promise<Row> {
    const row = await repo.findByIdOrSlug(
      executor,
      workspaceId,
      idOrSlug,
      lock ? { dialect, strength: lock } : undefined,
    );
    if (!row) throw notFound(label);
    return row;
  }

  return {
    require,

    /** A create's slug: the one asked for, else one from the title, claimed free (shared/slug-claim.ts). */
    claimSlug(trx: Executor, workspaceId: string, wanted: string | undefined, title: string): Promise<string> {
      return claimSlug((candidates) => repo.takenSlugs(trx, workspaceId, candidates), wanted, title, type);
    },

    /** A PATCH's columns: those its column map writes, and the slug when it changes (claimed free). */
    async patch(trx: Executor, workspaceId: string, body: Body, current: Row): Promise<Record<string, unknown>> {
      const patch = columns.write(body);
      if (body.slug !== undefined && body.slug !== current.slug)
        patch.slug = await claimSlug(
          (candidates) => repo.takenSlugs(trx, workspaceId, candidates),
          body.slug,
          current.title,
          type,
        );
      return patch;
    },

    /**
     * A PATCH's If-Match (a 409 when the row moved past the versions it names): after every 400 (contract §7
     * puts conflicts last), and under the row's lock, so no write slips between.
     */
    checkIfMatch(trx: Executor, workspaceId: string, current: Row, ifVersion: VersionCondition): Promise<void> {
      return checkVersion(current.updated_at, ifVersion, label, async () =>
        serialize(await present(trx, workspaceId, current)),
      );
    },

    /** Soft delete: the slug is freed, and the answer is the row as it was, with deletedAt set. */
    remove(writer: Writer, idOrSlug: string): Promise<Answer> {
      return contentWrite(database, writer, async ({ trx, workspaceId, changed }) => {
        const current = await require(trx, workspaceId, idOrSlug, 'noKeyUpdate');
        const snapshot = await present(trx, workspaceId, current);
        const now = nowIso();
        await repo.update(trx, workspaceId, current, { deleted_at: now }, now);
        changed({ type, id: current.id, slug: current.slug, action: 'deleted' });
        return { ...snapshot, deletedAt: now };
      });
    },
  };
}

/** A create's publishedAt: the one asked for, else now when it is created published. */
export function firstPublishedAt(columns: { published_at?: string | null; status?: string }, now: string) {
  return columns.published_at ?? (columns.status === 'published' ? now : null);
}
