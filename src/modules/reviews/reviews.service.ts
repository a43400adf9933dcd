import crypto from 'node:crypto';
import type { DatabaseHandle, Db } from '../../db/database.js';
import { AppError, conflict, invalid, notFound } from '../../errors.js';
import type { MailLog, Mailer } from '../../mail/mailer.js';
import { can, type Actor } from '../../security/actor.js';
import type { AlongsideWriter } from '../../writes/content-write.js';
import { storedPermissions, type Permission } from '../../security/permissions.js';
import { timeOrderedId } from '../../shared/time-ordered-id.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import type { PagesService } from '../pages/pages.service.js';
import type { PostsService } from '../posts/posts.service.js';
import { presentNotification, presentReview, presentSummary } from './reviews.presenter.js';
import { reviewsRepository as repo, type ResourceRow, type ReviewRow } from './reviews.repository.js';
import { isOpen, OPEN_STATES } from './review-rules.js';
import {
  type ApproveBody,
  type EntryType,
  type NotificationType,
  type Notifications,
  type NotificationsQuery,
  type Review,
  type ReviewKind,
  type ReviewQueue,
  type ReviewQueueQuery,
  type ReviewState,
} from './reviews.schemas.js';
import { reviewMail, type ReviewMailEvent } from './review-mail.js';

/** A thread holds at most this many entries: a review is a conversation, not a chat room. */
export const ENTRIES_MAX = 1000;
/** How much of a comment a notification carries. */
const EXCERPT_LENGTH = 200;

const RESOURCES = { post: 'posts', page: 'pages' } as const;
const LABELS = { post: 'Post', page: 'Page' } as const;

const cursorOf = (row: { updated_at: string; id: string }) =>
  Buffer.from(`${row.updated_at}|${row.id}`).toString('base64url');

function parseCursor(before: string): { updatedAt: string; id: string } {
  const [updatedAt, id] = Buffer.from(before, 'base64url').toString().split('|');
  if (!updatedAt || !id || Number.isNaN(Date.parse(updatedAt)) || !/^[0-9a-f-]{36}$/.test(id))
    throw invalid([{ in: 'query', path: '/before', message: 'before must be the next of an earlier page' }]);
  return { updatedAt, id };
}

const reviewClosed = (state: ReviewState) =>
  conflict(`This review is ${state.replace('_', ' ')}, not waiting for a decision`, { reason: 'review_closed', state });

const excerpt = (text: string | undefined) =>
  text === undefined ? null : text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;

/** Someone to tell, by the notification and, with mail configured, a message. */
interface Recipient {
  id: string;
  email: string;
}

/**
 * Review (docs/team.md, "Review"): a writer submits a draft, members who may publish it comment, request changes or
 * approve it (publishing it in the same write), and whoever is concerned is told in the dashboard and by mail.
 * Each step is one transaction with its thread entry and its notifications; mail goes after the commit.
 */
export function createReviewsService(
  database: DatabaseHandle,
  deps: { posts: PostsService; pages: PagesService; mailer: Mailer; publicUrl: string },
) {
  const { db } = database;
  const writers = { post: deps.posts, page: deps.pages };

  async function requireResource(executor: Db, actor: Actor, kind: ReviewKind, idOrSlug: string) {
    const resource = await repo.findResource(executor, actor.workspaceId, kind, idOrSlug);
    if (!resource) throw notFound(LABELS[kind]);
    return resource;
  }

  async function requireReview(executor: Db, actor: Actor, kind: ReviewKind, resource: ResourceRow) {
    const review = await repo.find(executor, actor.workspaceId, kind, resource.id);
    if (!review) throw notFound('Review');
    return review;
  }

  async function read(executor: Db, actor: Actor, kind: ReviewKind, idOrSlug: string): Promise<Review> {
    const resource = await requireResource(executor, actor, kind, idOrSlug);
    const review = await requireReview(executor, actor, kind, resource);
    return presentReview(review, resource, await repo.entries(executor, actor.workspaceId, review.id));
  }

  async function emailOf(executor: Db, actor: Actor): Promise<string> {
    const user = await accountsRepository.findUserById(executor, actor.userId);
    return user?.email ?? '';
  }

  /** The members who may decide on a review of `kind`, other than `except`. */
  async function reviewersOf(executor: Db, actor: Actor, kind: ReviewKind, except: string): Promise<Recipient[]> {
    const permission = `${RESOURCES[kind]}:write` as Permission;
    const members = await repo.reviewers(executor, actor.workspaceId);
    return members
      .filter(
        (member) =>
          member.user_id !== except &&
          (member.user_id === member.owner_user_id || storedPermissions(member.permissions).includes(permission)),
      )
      .map((member) => ({ id: member.user_id, email: member.email }));
  }

  /** Whoever took part in the thread, and its writer, other than `except`. */
  async function concerned(executor: Db, actor: Actor, review: ReviewRow, except: string): Promise<Recipient[]> {
    const people = await repo.participants(executor, actor.workspaceId, review.id);
    return people.filter((person) => person.id !== except);
  }

  /** The writer of the review, while they are still a member, unless they are `except`. */
  async function writerOf(executor: Db, actor: Actor, review: ReviewRow, except: string): Promise<Recipient[]> {
    if (review.submitted_by === null || review.submitted_by === except) return [];
    const people = await repo.participants(executor, actor.workspaceId, review.id);
    return people.filter((person) => person.id === review.submitted_by);
  }

  async function record(
    executor: Db,
    actor: Actor,
    review: ReviewRow,
    step: { type: EntryType; body?: string; email: string; at: string },
    tell: { type: NotificationType; to: Recipient[] } | null,
  ): Promise<Recipient[]> {
    await repo.addEntry(executor, {
      id: timeOrderedId(Date.parse(step.at)),
      workspace_id: actor.workspaceId,
      review_id: review.id,
      type: step.type,
      body: step.body ?? null,
      author_id: actor.userId,
      author_email: step.email,
      created_at: step.at,
    });
    if (!tell) return [];
    await repo.notify(
      executor,
      tell.to.map((recipient) => ({
        id: timeOrderedId(Date.parse(step.at)),
        workspace_id: actor.workspaceId,
        user_id: recipient.id,
        type: tell.type,
        review_id: review.id,
        actor_id: actor.userId,
        actor_email: step.email,
        excerpt: excerpt(step.body),
        created_at: step.at,
        read_at: null,
      })),
    );
    return tell.to;
  }

  /** Mail after the commit, not awaited: a slow mail server holds no answer, and a refusal is only logged. */
  function mail(
    to: Recipient[],
    event: ReviewMailEvent,
    review: { kind: ReviewKind; resource: ResourceRow },
    actor: Actor,
    log: MailLog,
  ) {
    if (!deps.mailer.configured) return;
    const url = `${deps.publicUrl}/dashboard/w/${actor.workspaceId}/${RESOURCES[review.kind]}/${review.resource.id}/edit`;
    for (const recipient of to)
      void deps.mailer
        .send(reviewMail({ ...event, to: recipient.email, title: review.resource.title, url }), log)
        .catch((error: unknown) => log.warn({ err: error }, 'review mail failed'));
  }

  /** One step of a review, in one transaction: what it does, then the review as the step leaves it. */
  function step(
    actor: Actor,
    kind: ReviewKind,
    idOrSlug: string,
    work: (trx: Db, review: ReviewRow) => Promise<Recipient[]>,
  ) {
    return db.transaction().execute(async (trx) => {
      const resource = await requireResource(trx, actor, kind, idOrSlug);
      const told = await work(trx, await requireReview(trx, actor, kind, resource));
      return { answer: await read(trx, actor, kind, resource.id), told, resource };
    });
  }

  /**
   * Moves a review from one of `from` to `state` as the actor's decision; refused when it is in none of them by now
   * (another reviewer decided a moment before), so two decisions never both stand. Answers the actor's email.
   */
  async function decide(
    trx: Db,
    actor: Actor,
    review: ReviewRow,
    from: readonly ReviewState[],
    state: ReviewState,
    at: string,
  ) {
    const email = await emailOf(trx, actor);
    const decided = { state, decided_by: actor.userId, decided_by_email: email, decided_at: at, updated_at: at };
    if (!(await repo.move(trx, actor.workspaceId, review.id, from, decided))) {
      const now = await repo.find(trx, actor.workspaceId, review.resource_type, review.resource_id);
      throw reviewClosed(now?.state ?? review.state);
    }
    return email;
  }

  return {
    get: (actor: Actor, kind: ReviewKind, idOrSlug: string) => read(db, actor, kind, idOrSlug),

    /** Submits a draft, or submits it again after changes were requested, it was approved or withdrawn. */
    async submit(actor: Actor, kind: ReviewKind, idOrSlug: string, comment: string | undefined, log: MailLog) {
      const { answer, told, resource } = await db.transaction().execute(async (trx) => {
        const resource = await requireResource(trx, actor, kind, idOrSlug);
        if (resource.status !== 'draft')
          throw conflict(`Only a draft is submitted for review; this ${kind} is ${resource.status}`, {
            reason: 'not_draft',
            status: resource.status,
          });
        const at = new Date().toISOString();
        const email = await emailOf(trx, actor);
        const fields = {
          state: 'in_review' as const,
          submitted_by: actor.userId,
          submitted_by_email: email,
          submitted_at: at,
          decided_by: null,
          decided_by_email: null,
          decided_at: null,
          updated_at: at,
        };
        let review = await repo.find(trx, actor.workspaceId, kind, resource.id);
        if (review === undefined) {
          review = {
            id: crypto.randomUUID(),
            workspace_id: actor.workspaceId,
            resource_type: kind,
            resource_id: resource.id,
            ...fields,
          };
          await repo.insert(trx, review);
        } else if (
          !(await repo.move(trx, actor.workspaceId, review.id, ['changes_requested', 'approved', 'withdrawn'], fields))
        )
          throw conflict('This draft is waiting for review already', { reason: 'review_open' });
        const to = await reviewersOf(trx, actor, kind, actor.userId);
        const told = await record(
          trx,
          actor,
          review,
          { type: 'submitted', body: comment, email, at },
          { type: 'review_submitted', to },
        );
        return { answer: await read(trx, actor, kind, resource.id), told, resource };
      });
      mail(told, { type: 'review_submitted', by: answer.submittedBy.email, comment }, { kind, resource }, actor, log);
      return answer;
    },

    async comment(actor: Actor, kind: ReviewKind, idOrSlug: string, body: string, log: MailLog) {
      const { answer, told, resource } = await step(actor, kind, idOrSlug, async (trx, review) => {
        if ((await repo.countEntries(trx, actor.workspaceId, review.id)) >= ENTRIES_MAX)
          throw conflict(`A review's thread holds at most ${ENTRIES_MAX} entries`, { reason: 'review_entries_max' });
        const at = new Date().toISOString();
        await repo.touch(trx, actor.workspaceId, review.id, at);
        const email = await emailOf(trx, actor);
        const to = await concerned(trx, actor, review, actor.userId);
        return record(trx, actor, review, { type: 'comment', body, email, at }, { type: 'review_comment', to });
      });
      const by = answer.entries.at(-1)!.author.email;
      mail(told, { type: 'review_comment', by, comment: body }, { kind, resource }, actor, log);
      return answer;
    },

    async requestChanges(actor: Actor, kind: ReviewKind, idOrSlug: string, comment: string, log: MailLog) {
      const { answer, told, resource } = await step(actor, kind, idOrSlug, async (trx, review) => {
        const at = new Date().toISOString();
        const email = await decide(trx, actor, review, ['in_review'], 'changes_requested', at);
        const to = await writerOf(trx, actor, review, actor.userId);
        const entry = { type: 'changes_requested', body: comment, email, at } as const;
        return record(trx, actor, review, entry, { type: 'changes_requested', to });
      });
      mail(told, { type: 'changes_requested', by: answer.decidedBy!.email, comment }, { kind, resource }, actor, log);
      return answer;
    },

    /**
     * Approves a review waiting for a decision; with `publish` (the default) the draft is published by the same
     * transaction, through the resource's own update, so the approval and the publication stand or fall together.
     */
    async approve(actor: Actor, kind: ReviewKind, idOrSlug: string, body: ApproveBody, log: MailLog) {
      const publish = body.publish ?? true;
      const resource = await requireResource(db, actor, kind, idOrSlug);
      const review = await requireReview(db, actor, kind, resource);
      if (!isOpen(review.state)) throw reviewClosed(review.state);
      if (publish && resource.status !== 'draft')
        throw conflict(`Only a draft is published by an approval; this ${kind} is ${resource.status}`, {
          reason: 'not_draft',
          status: resource.status,
        });
      let told: Recipient[] = [];
      const approval = async (trx: Db) => {
        const at = new Date().toISOString();
        const email = await decide(trx, actor, review, OPEN_STATES, 'approved', at);
        const to = await writerOf(trx, actor, review, actor.userId);
        const entry = { type: 'approved', body: body.comment, email, at } as const;
        told = await record(trx, actor, review, entry, { type: 'approved', to });
      };
      if (publish) {
        // The route answers the review, not the post: the post's answer is not the one to seal.
        const { seal: _unsealed, ...plain } = actor;
        const approving: Actor & AlongsideWriter = { ...plain, alongside: (trx) => approval(trx) };
        await writers[kind].update(approving, resource.id, { status: 'published' });
      } else await db.transaction().execute(approval);
      const answer = await read(db, actor, kind, resource.id);
      mail(
        told,
        { type: 'approved', by: answer.decidedBy!.email, comment: body.comment, published: publish },
        { kind, resource },
        actor,
        log,
      );
      return answer;
    },

    /** The writer, or whoever may decide, takes a review out of the queue; the thread stays. */
    async withdraw(actor: Actor, kind: ReviewKind, idOrSlug: string, comment: string | undefined) {
      const { answer } = await step(actor, kind, idOrSlug, async (trx, review) => {
        if (review.submitted_by !== actor.userId && !can(actor, `${RESOURCES[kind]}:write` as Permission))
          throw new AppError('FORBIDDEN', 'Only its writer or someone who may publish it withdraws a review', {
            permission: `${RESOURCES[kind]}:write`,
          });
        const at = new Date().toISOString();
        const email = await decide(trx, actor, review, OPEN_STATES, 'withdrawn', at);
        return record(trx, actor, review, { type: 'withdrawn', body: comment, email, at }, null);
      });
      return answer;
    },

    /** The queue: reviews of what the member may read, in one state, newest activity first. */
    async queue(actor: Actor, query: ReviewQueueQuery): Promise<ReviewQueue> {
      const readable = (['post', 'page'] as const).filter((kind) => can(actor, `${RESOURCES[kind]}:read`));
      const kinds = query.kind === undefined ? readable : readable.filter((kind) => kind === query.kind);
      const limit = query.limit ?? 50;
      const submittedBy = query.mine ? actor.userId : undefined;
      if (kinds.length === 0) return { data: [], next: null, counts: { in_review: 0, changes_requested: 0 } };
      const [rows, counts] = await Promise.all([
        repo.queue(db, actor.workspaceId, {
          state: query.state ?? 'in_review',
          kinds,
          submittedBy,
          before: query.before === undefined ? undefined : parseCursor(query.before),
          limit: limit + 1,
        }),
        repo.openCounts(db, actor.workspaceId, kinds, submittedBy),
      ]);
      const page = rows.slice(0, limit);
      return {
        data: page.map(presentSummary),
        next: rows.length > limit ? cursorOf(page.at(-1)!) : null,
        counts,
      };
    },

    async notifications(actor: Actor, query: NotificationsQuery): Promise<Notifications> {
      const [rows, unread] = await Promise.all([
        repo.inbox(db, actor.workspaceId, actor.userId, { unread: query.unread ?? false, limit: query.limit ?? 30 }),
        repo.unreadCount(db, actor.workspaceId, actor.userId),
      ]);
      return { data: rows.map(presentNotification), unread };
    },

    async markRead(actor: Actor, ids: readonly string[] | undefined): Promise<{ unread: number }> {
      await repo.markRead(db, actor.workspaceId, actor.userId, ids, new Date().toISOString());
      return { unread: await repo.unreadCount(db, actor.workspaceId, actor.userId) };
    },
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
