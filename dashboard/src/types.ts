// The dashboard shares the server's schemas as types only (STYLE.md): nothing here is bundled from src/.
export type { ApiKey, ApiKeyWithSecret, ApiKeyStatus } from '../../src/modules/api-keys/api-keys.schemas.js';
export type { ContentKey } from '../../src/modules/content-keys/content-keys.schemas.js';
export type { Post } from '../../src/modules/posts/posts.schemas.js';
export type { Page } from '../../src/modules/pages/pages.schemas.js';
export type { Pending } from '../../src/modules/pending/pending.schemas.js';
export type { Media } from '../../src/modules/media/media.schemas.js';
export type { Author } from '../../src/modules/authors/authors.schemas.js';
export type { Category } from '../../src/modules/categories/categories.schemas.js';
export type { Tag } from '../../src/modules/tags/tags.schemas.js';
export type { Redirect } from '../../src/modules/redirects/redirects.schemas.js';
export type { LinkHealth } from '../../src/modules/link-health/link-health.schemas.js';
export type { Delivery, Webhook, WebhookWithSecret } from '../../src/modules/webhooks/webhooks.schemas.js';
export type { ReviewLink } from '../../src/modules/review-links/review-links.schemas.js';
export type { Block } from '@quire/blocks';
export type { Paginated } from '../../src/shared/paging.js';
export type { SiteSettings } from '../../src/modules/workspaces/site-settings.js';
export type { Permission, ReadOnlyResource, Resource } from '../../src/security/permissions.js';
export type { Session, WorkspaceSummary, Member } from '../../src/modules/dashboard/dashboard.schemas.js';
export type { Invitation, InvitationPreview, InvitationSent } from '../../src/modules/team/team.schemas.js';
export type {
  Review,
  ReviewEntry,
  ReviewQueue,
  ReviewState,
  ReviewSummary,
  Notification as ReviewNotification,
  Notifications as ReviewNotifications,
} from '../../src/modules/reviews/reviews.schemas.js';
