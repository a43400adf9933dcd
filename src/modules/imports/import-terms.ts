import { AuthorCreateBody, AUTHOR_LIMITS, AuthorUpdateBody } from '../authors/authors.schemas.js';
import { CategoryCreateBody, CATEGORY_LIMITS, CategoryUpdateBody } from '../categories/categories.schemas.js';
import { TagCreateBody, TAG_NAME_MAX_LENGTH, TagUpdateBody } from '../tags/tags.schemas.js';
import type { TSchema } from 'typebox';
import { checked, fitted, importSlug, webUrl } from './import-bodies.js';
import {
  failureMessage,
  findInLedger,
  isNotFound,
  ledgerKey,
  ledgerWriter,
  pretendId,
  reportItem,
  type ImportContext,
} from './import-context.js';
import { contentHash } from './import-hash.js';
import type { ItemAction } from './import-report.js';
import type { ImportAuthor, ImportCategory, ImportTag } from './import-source.js';
import type { Actor } from '../../security/actor.js';
import { nowIso } from '../../shared/time.js';
import { importLedgerRepository, type LedgerKey } from './import-ledger.repository.js';
import type { ConversionNote } from '@quire/blocks';

type Term = ImportAuthor | ImportCategory | ImportTag;

/** What the runner needs of the service of one kind of term. */
interface TermService {
  get(actor: Actor, idOrSlug: string): Promise<{ id: string }>;
  create(actor: Actor, body: never): Promise<{ id: string }>;
  update(actor: Actor, idOrSlug: string, body: never): Promise<{ id: string }>;
}

interface TermPlan {
  name: string;
  slug: string;
  body: Record<string, unknown>;
  createSchema: TSchema;
  updateSchema: TSchema;
  notes: ConversionNote[];
}

function planAuthor(author: ImportAuthor): TermPlan {
  const name = fitted(author.displayName, AUTHOR_LIMITS.displayName) ?? author.sourceId;
  const sameAs = [...new Set(author.sameAs.map((url) => webUrl(url, AUTHOR_LIMITS.url)).filter((url) => url))];
  const dropped = author.sameAs.length - sameAs.length;
  return {
    name,
    slug: importSlug(author.slug, name, 'author'),
    body: {
      displayName: name,
      bio: fitted(author.bio, AUTHOR_LIMITS.bio) ?? null,
      sameAs: sameAs.slice(0, AUTHOR_LIMITS.sameAs),
    },
    createSchema: AuthorCreateBody,
    updateSchema: AuthorUpdateBody,
    notes:
      dropped > 0 || sameAs.length > AUTHOR_LIMITS.sameAs
        ? [
            {
              kind: 'approximated',
              element: 'sameAs',
              excerpt: 'profile links that are not http(s) URLs, or past 20, left out',
            },
          ]
        : [],
  };
}

function planCategory(context: ImportContext, category: ImportCategory): TermPlan {
  const name = fitted(category.name, CATEGORY_LIMITS.name) ?? category.sourceId;
  const parentId = category.parentSourceId ? context.ids.category.get(category.parentSourceId) : undefined;
  const notes: ConversionNote[] =
    category.parentSourceId && !parentId
      ? [
          {
            kind: 'approximated',
            element: 'parent',
            excerpt: `parent ${category.parentSourceId} not imported: a top-level category`,
          },
        ]
      : [];
  return {
    name,
    slug: importSlug(category.slug, name, 'category'),
    body: {
      name,
      description: fitted(category.description, CATEGORY_LIMITS.description) ?? null,
      parentId: parentId ?? null,
    },
    createSchema: CategoryCreateBody,
    updateSchema: CategoryUpdateBody,
    notes,
  };
}

function planTag(tag: ImportTag): TermPlan {
  const name = fitted(tag.name, TAG_NAME_MAX_LENGTH) ?? tag.sourceId;
  return {
    name,
    slug: importSlug(tag.slug, name, 'tag'),
    body: { name },
    createSchema: TagCreateBody,
    updateSchema: TagUpdateBody,
    notes: [],
  };
}

/**
 * An author, category or tag: updated when imported before and changed since, else taken over when the workspace
 * already has one with its slug (a workspace's "javascript" tag is the import's too), else created.
 */
export async function importTerm(context: ImportContext, term: Term): Promise<void> {
  const { plan, service } =
    term.type === 'author'
      ? { plan: planAuthor(term), service: context.services.authors as unknown as TermService }
      : term.type === 'category'
        ? { plan: planCategory(context, term), service: context.services.categories as unknown as TermService }
        : { plan: planTag(term), service: context.services.tags as unknown as TermService };
  const key = ledgerKey(context, term.type, term.sourceId);
  const hash = contentHash({ slug: plan.slug, ...plan.body });
  const report = (action: ItemAction, quireId: string | null, message?: string) =>
    reportItem(context, {
      type: term.type,
      sourceId: term.sourceId,
      title: plan.name,
      action,
      quireId,
      approximated: plan.notes,
      dropped: [],
      ...(message === undefined ? {} : { message }),
    });
  try {
    const known = await findInLedger(context, key);
    const current = known && (await existing(service, context.actor, known.quireId));
    if (current && known.contentHash === hash) {
      context.ids[term.type].set(term.sourceId, current);
      return report('unchanged', current);
    }
    if (current) {
      const body = checked(plan.updateSchema, plan.body);
      const id = context.dryRun
        ? current
        : (await service.update(ledgerWriter(context, key, hash), current, body as never)).id;
      context.ids[term.type].set(term.sourceId, id);
      return report('updated', id);
    }
    const same = await existing(service, context.actor, plan.slug);
    if (same) {
      if (!context.dryRun) await adopt(context, key, same, hash);
      context.ids[term.type].set(term.sourceId, same);
      return report('adopted', same);
    }
    const body = checked(plan.createSchema, { slug: plan.slug, ...plan.body });
    const id = context.dryRun
      ? pretendId()
      : (await service.create(ledgerWriter(context, key, hash), body as never)).id;
    context.ids[term.type].set(term.sourceId, id);
    return report('created', id);
  } catch (error) {
    return report('failed', null, failureMessage(error));
  }
}

async function existing(service: TermService, actor: Actor, idOrSlug: string): Promise<string | null> {
  try {
    return (await service.get(actor, idOrSlug)).id;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/**
 * A term taken over is the import's from now on, as it is: the next run leaves it alone until the source's changes.
 */
async function adopt(context: ImportContext, key: LedgerKey, quireId: string, hash: string): Promise<void> {
  await importLedgerRepository.record(context.database.db, key, { quireId, contentHash: hash }, nowIso());
}
