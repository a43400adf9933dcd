import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { DatabaseHandle } from '../../db/database.js';
import { existingIds } from '../../db/references.js';
import { invalid, type ValidationIssue } from '../../errors.js';
import { contentWrite } from '../../writes/content-write.js';
import { recordAudit } from '../../audit/audit-log.js';
import type { Actor } from '../../security/actor.js';
import type { SiteSettingsPatch } from './site-settings.patch.js';
import { requirePermission } from '../../security/actor.js';
import { SITE_SETTINGS_COLUMN_OF, type SiteSettings } from './site-settings.js';
import { workspacesRepository as repo, type SettingsColumns } from './workspaces.repository.js';

const COLUMNS = SITE_SETTINGS_COLUMN_OF satisfies Record<keyof SiteSettings, keyof SettingsColumns>;

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

/**
 * The preview route may live on another host than the site (a preview deployment), so its pattern is a path on
 * the site or an absolute http(s) URL; either way it must carry the token.
 */
function previewPatternProblem(pattern: string): string | null {
  const onSite = pattern.startsWith('/') && !pattern.startsWith('//') && !/[\s\\]/.test(pattern);
  if (!onSite && !isAbsoluteHttpUrl(pattern.replace(/\{(token|type|id|slug)\}/g, 'x')))
    return 'previewUrlPattern must be a path starting with a single "/" or an absolute http or https URL';
  if (!pattern.includes('{token}')) return 'previewUrlPattern must contain {token}';
  return null;
}

/** The rules of site settings beyond their schema (an import checks an archive's settings by them too). */
export function settingsIssues(patch: SiteSettingsPatch): ValidationIssue[] {
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
  const preview = patch.previewUrlPattern;
  if (typeof preview === 'string') {
    const problem = previewPatternProblem(preview);
    if (problem) issues.push({ in: 'body', path: '/previewUrlPattern', message: problem });
  }
  return issues;
}

/**
 * The workspace's site settings, which every jsonLd is built from. `answer` reads them as the API does (the logo's
 * media row embedded, which this module does not know how to present): a write's answer is its event's body.
 */
export function createSettingsService(
  database: DatabaseHandle,
  answer: (db: Kysely<Database>, workspaceId: string) => Promise<SiteSettings>,
) {
  const { db } = database;
  return {
    get: (actor: Actor): Promise<SiteSettings> => answer(db, actor.workspaceId),

    /** A content write: cached jsonLd must not outlive the settings it was built from. */
    async update(actor: Actor, patch: SiteSettingsPatch): Promise<SiteSettings> {
      requirePermission(actor, 'site-settings:write');
      const issues = settingsIssues(patch);
      if (issues.length > 0) throw invalid(issues);
      const columns: SettingsColumns = {};
      for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof SiteSettings, keyof SettingsColumns]>) {
        const value = patch[field];
        if (value !== undefined) columns[column] = typeof value === 'string' ? value.trim() : value;
      }
      return contentWrite(database, actor, async ({ trx, workspaceId, changed }) => {
        const logo = patch.logoMediaId;
        if (logo && !(await existingIds(trx, database.dialect, 'media', workspaceId, [logo])).has(logo)) {
          throw invalid([
            { in: 'body', path: '/logoMediaId', message: 'logoMediaId must be a media item of this workspace' },
          ]);
        }
        await repo.updateSettings(trx, workspaceId, columns, new Date().toISOString());
        changed({ type: 'settings', id: workspaceId, slug: null, action: 'updated' });
        await recordAudit(trx, workspaceId, actor, {
          action: 'workspace.settings_changed',
          details: { fields: Object.keys(patch).filter((field) => patch[field as keyof SiteSettings] !== undefined) },
        });
        return answer(trx, workspaceId);
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
