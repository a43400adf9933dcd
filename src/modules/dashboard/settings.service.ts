import type { DatabaseHandle } from '../../db/database.js';
import { invalid, type ValidationIssue } from '../../errors.js';
import type { Actor } from '../accounts/actor.js';
import { bumpContentVersion } from '../accounts/accounts.repository.js';
import { loadSiteSettings, type SiteSettings } from '../seo/site-settings.js';
import type { SiteSettingsPatch } from './dashboard.schemas.js';
import { dashboardWorkspacesRepository as repo, type SettingsColumns } from './workspaces.repository.js';
import { ownerOnly } from './workspaces.service.js';

const COLUMNS = {
  siteName: 'site_name',
  siteUrl: 'site_url',
  logoMediaId: 'logo_media_id',
  publisherName: 'publisher_name',
  publisherUrl: 'publisher_url',
  postUrlPattern: 'post_url_pattern',
  pageUrlPattern: 'page_url_pattern',
  authorUrlPattern: 'author_url_pattern',
  categoryUrlPattern: 'category_url_pattern',
} as const satisfies Record<keyof SiteSettings, keyof SettingsColumns>;

const URL_FIELDS = ['siteUrl', 'publisherUrl'] as const;
const PATTERN_FIELDS = ['postUrlPattern', 'pageUrlPattern', 'authorUrlPattern', 'categoryUrlPattern'] as const;

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.hostname !== '' &&
      url.username === '' &&
      url.password === ''
    );
  } catch {
    return false;
  }
}

/**
 * A pattern is a path on the site. `//host` or `/\host` would make `new URL(pattern, siteUrl)` leave
 * the site for another host, so a second slash or a backslash may not follow the first.
 */
function patternProblem(field: (typeof PATTERN_FIELDS)[number], pattern: string): string | null {
  if (!pattern.startsWith('/') || pattern.startsWith('//') || /[\s\\]/.test(pattern)) {
    return `${field} must be a path starting with a single "/", without spaces or backslashes`;
  }
  const placeholders = field === 'categoryUrlPattern' ? ['{slug}', '{path}'] : ['{slug}'];
  if (!placeholders.some((placeholder) => pattern.includes(placeholder)))
    return `${field} must contain ${placeholders.join(' or ')}`;
  return null;
}

function check(patch: SiteSettingsPatch): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const field of URL_FIELDS) {
    const value = patch[field];
    if (typeof value === 'string' && !isAbsoluteHttpUrl(value)) {
      issues.push({ in: 'body', path: `/${field}`, message: `${field} must be an absolute http or https URL` });
    }
  }
  for (const field of PATTERN_FIELDS) {
    const value = patch[field];
    const problem = typeof value === 'string' ? patternProblem(field, value) : null;
    if (problem) issues.push({ in: 'body', path: `/${field}`, message: problem });
  }
  return issues;
}

/** The workspace's site settings, which every jsonLd is built from. */
export function createSettingsService({ db }: DatabaseHandle) {
  return {
    get: (actor: Actor): Promise<SiteSettings> => loadSiteSettings(db, actor.workspaceId),

    /** A change bumps the content version in the same transaction: cached jsonLd must not outlive it. */
    async update(actor: Actor, patch: SiteSettingsPatch): Promise<SiteSettings> {
      if (!actor.isOwner) throw ownerOnly();
      const issues = check(patch);
      if (issues.length > 0) throw invalid(issues);
      const columns: SettingsColumns = {};
      for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof SiteSettings, keyof SettingsColumns]>) {
        const value = patch[field];
        if (value !== undefined) columns[column] = typeof value === 'string' ? value.trim() : value;
      }
      return db.transaction().execute(async (trx) => {
        const logo = patch.logoMediaId;
        if (logo && !(await repo.mediaExists(trx, actor.workspaceId, logo.toLowerCase()))) {
          throw invalid([
            { in: 'body', path: '/logoMediaId', message: 'logoMediaId must be a media item of this workspace' },
          ]);
        }
        if (logo) columns.logo_media_id = logo.toLowerCase();
        await repo.updateSettings(trx, actor.workspaceId, columns, new Date().toISOString());
        await bumpContentVersion(trx, actor.workspaceId);
        return loadSiteSettings(trx, actor.workspaceId);
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
