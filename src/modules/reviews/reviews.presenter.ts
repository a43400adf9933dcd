import type { EntryRow, NotificationView, ResourceRow, ReviewListRow, ReviewRow } from './reviews.repository.js';
import type { Notification, Review, ReviewSummary } from './reviews.schemas.js';

const person = (userId: string | null, email: string) => ({ userId, email });

const resourceOf = (row: ResourceRow) => ({
  id: row.id,
  title: row.title,
  slug: row.slug,
  status: row.status,
  updatedAt: row.updated_at,
});

export function presentReview(review: ReviewRow, resource: ResourceRow, entries: EntryRow[]): Review {
  return {
    id: review.id,
    kind: review.resource_type,
    resource: resourceOf(resource),
    state: review.state,
    submittedBy: person(review.submitted_by, review.submitted_by_email),
    submittedAt: review.submitted_at,
    decidedBy: review.decided_by_email === null ? null : person(review.decided_by, review.decided_by_email),
    decidedAt: review.decided_at,
    updatedAt: review.updated_at,
    entries: entries.map((entry) => ({
      id: entry.id,
      type: entry.type,
      body: entry.body,
      author: person(entry.author_id, entry.author_email),
      createdAt: entry.created_at,
    })),
  };
}

export function presentSummary(row: ReviewListRow): ReviewSummary {
  return {
    id: row.id,
    kind: row.resource_type,
    resource: resourceOf({ ...row, id: row.resource_id, updated_at: row.resource_updated_at }),
    state: row.state,
    submittedBy: person(row.submitted_by, row.submitted_by_email),
    submittedAt: row.submitted_at,
    updatedAt: row.updated_at,
    comments: Number(row.comments),
  };
}

export function presentNotification(row: NotificationView): Notification {
  return {
    id: row.id,
    type: row.type,
    review: {
      id: row.review_id,
      kind: row.resource_type,
      resourceId: row.resource_id,
      title: row.title,
      state: row.state,
    },
    actor: person(row.actor_id, row.actor_email),
    excerpt: row.excerpt,
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}
