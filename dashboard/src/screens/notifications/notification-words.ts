import type { ReviewNotification } from '../../types';

/**
 * What a notification says around its actor and the draft's title: "‹who› requested changes on “‹title›”".
 * The verb comes before the title, and what follows it (if anything) after.
 */
export function notificationWords(type: ReviewNotification['type']): { before: string; after: string } {
  switch (type) {
    case 'review_submitted':
      return { before: 'submitted', after: ' for review' };
    case 'review_comment':
      return { before: 'commented on', after: '' };
    case 'changes_requested':
      return { before: 'requested changes on', after: '' };
    case 'approved':
      return { before: 'approved', after: '' };
  }
}

/** The bell's name, with the count a sighted reader sees on it. */
export const bellLabel = (unread: number) =>
  unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;
