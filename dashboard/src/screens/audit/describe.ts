import { SETTINGS_FIELDS } from '../../forms/descriptions';
import { formatTime } from '../../hooks';
import { summarize } from '../members/PermissionsGrid';
import type { AuditCategory, AuditEntry } from './types';

/** The category filter's choices, in the order the server lists its actions. */
export const CATEGORY_LABELS: Record<AuditCategory, string> = {
  session: 'Sign-ins',
  second_factor: 'Second factors',
  passkey: 'Passkeys',
  password: 'Passwords',
  invitation: 'Invitations',
  member: 'Members',
  workspace: 'Workspace',
  api_key: 'API keys',
  content_key: 'Content keys',
  webhook: 'Webhooks',
  import: 'Imports',
  export: 'Exports',
};

export function isCategory(value: string): value is AuditCategory {
  return Object.hasOwn(CATEGORY_LABELS, value);
}

/** What a row says happened: one sentence, and the facts it leaves out, each a short line of its own. */
export interface Description {
  sentence: string;
  more: string[];
}

const quoted = (text: string) => `“${text}”`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const listed = (value: unknown) => strings(value).join(', ') || '—';

const SETTING_LABELS: Record<string, string> = Object.fromEntries(SETTINGS_FIELDS.map((f) => [f.name, f.label]));

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString()} KB`;
  return `${(Math.round((bytes / 1024 / 1024) * 10) / 10).toLocaleString()} MB`;
}

/** Details the sentence has no words for, as `name: value`, so nothing the server recorded is hidden. */
function plainDetails(details: Record<string, unknown>): string[] {
  return Object.entries(details).map(
    ([name, value]) => `${name}: ${Array.isArray(value) ? listed(value) : String(value)}`,
  );
}

export function describe(entry: AuditEntry): Description {
  const details = entry.details as Record<string, unknown>;
  const label = entry.target?.label ?? null;
  const person = label ?? 'a former member';
  const key = quoted(label ?? 'unnamed');
  const webhook = label ?? 'a webhook';
  const text = (name: string) => (typeof details[name] === 'string' ? (details[name] as string) : null);
  const number = (name: string) => (typeof details[name] === 'number' ? (details[name] as number) : null);
  const has = (name: string) => Object.hasOwn(details, name);
  const self = entry.actor.userId !== null && entry.target?.type === 'user' && entry.target.id === entry.actor.userId;
  const permissions = () =>
    has('permissions') ? [`Permissions: ${summarize(strings(details.permissions), false)}`] : [];
  const origins = () =>
    has('allowedOrigins') ? [`Allowed origins: ${strings(details.allowedOrigins).join(', ') || 'any (no list)'}`] : [];
  const say = (sentence: string, more: string[] = []): Description => ({ sentence, more });

  switch (entry.action) {
    case 'session.signed_in':
      return say(
        details.secondFactor === 'totp'
          ? 'Signed in with a code from their authenticator app'
          : details.secondFactor === 'recovery_code'
            ? 'Signed in with a recovery code'
            : details.secondFactor === 'passkey'
              ? 'Signed in with their password and a passkey'
              : details.via === 'passkey'
                ? 'Signed in with a passkey, without a password'
                : details.via === 'single sign-on'
                  ? 'Signed in through single sign-on'
                  : 'Signed in',
      );
    case 'session.sign_in_failed':
      return say(
        details.via === 'passkey' ? `Failed sign-in to ${person} with a passkey` : `Failed sign-in to ${person}`,
      );
    case 'session.second_factor_failed':
      return say(
        details.secondFactor === 'passkey'
          ? `Failed sign-in to ${person}: right password, passkey not accepted`
          : `Failed sign-in to ${person}: right password, wrong code`,
      );
    case 'second_factor.enabled':
      return say('Turned on their second factor (an authenticator app)');
    case 'second_factor.disabled':
      return say('Turned off their second factor');
    case 'second_factor.recovery_codes_renewed':
      return say('Made new recovery codes; the old ones stopped working');
    case 'passkey.added':
      return say(`Added a passkey, ${quoted(text('name') ?? 'unnamed')}`);
    case 'passkey.removed':
      return say(`Removed a passkey, ${quoted(text('name') ?? 'unnamed')}`);
    case 'password.changed':
      return say(self ? 'Changed their password' : `Changed the password of ${person}`);
    case 'password.reset':
      return say(self ? 'Reset their password with a mailed link' : `Reset the password of ${person}`);
    case 'invitation.created':
      return say(`Invited ${person}`, permissions());
    case 'invitation.resent':
      return say(`Resent the invitation to ${person}`);
    case 'invitation.withdrawn':
      return say(`Withdrew the invitation to ${person}`);
    case 'invitation.accepted':
      return say(
        details.accountCreated === true
          ? 'Accepted the invitation, with a new account'
          : 'Accepted the invitation with their account',
        permissions(),
      );
    case 'member.added':
      return details.via === 'single sign-on'
        ? say(`${person} joined through single sign-on, as ${String(details.role)}`, permissions())
        : say(`Added ${person} as a member`, permissions());
    case 'member.permissions_changed':
      return say(
        `Changed permissions of ${person}: added ${listed(details.added)}; removed ${listed(details.removed)}`,
      );
    case 'member.removed':
      return say(`Removed ${person} from the workspace`);
    case 'member.sessions_ended': {
      const ended = number('ended');
      return say(
        ended === null ? `Signed ${person} out everywhere` : `Signed ${person} out of ${plural(ended, 'session')}`,
      );
    }
    case 'workspace.renamed':
      return say(`Renamed the workspace to ${quoted(text('name') ?? '')}`);
    case 'workspace.transferred':
      return say(`Transferred the workspace to ${person}`);
    case 'workspace.second_factor_required':
      return say(
        details.required === false
          ? 'Stopped requiring a second factor of every member'
          : 'Required a second factor of every member',
      );
    case 'workspace.settings_changed': {
      const fields = strings(details.fields).map((field) => SETTING_LABELS[field] ?? field);
      return say(fields.length > 0 ? `Changed site settings: ${fields.join(', ')}` : 'Saved site settings unchanged');
    }
    case 'api_key.created': {
      const expires = text('expiresAt');
      return say(`Created API key ${key}`, [expires ? `Expires ${formatTime(expires)}` : 'Never expires']);
    }
    case 'api_key.revealed':
      return say(`Revealed API key ${key}`);
    case 'api_key.updated': {
      const expires = text('expiresAt');
      const expiry = has('expiresAt') ? [expires ? `Now expires ${formatTime(expires)}` : 'Now never expires'] : [];
      return say(has('name') ? `Renamed API key to ${key}` : `Changed API key ${key}`, expiry);
    }
    case 'api_key.revoked':
      return say(`Revoked API key ${key}`);
    case 'content_key.created':
      return say(`Created content key ${key}`, origins());
    case 'content_key.updated':
      return say(has('name') ? `Renamed content key to ${key}` : `Changed content key ${key}`, origins());
    case 'content_key.revoked':
      return say(`Revoked content key ${key}`);
    case 'webhook.created': {
      const events = details.eventTypes === null ? 'all' : listed(details.eventTypes);
      return say(`Added webhook ${webhook}`, [`Events: ${events}`, ...(details.enabled === false ? ['Disabled'] : [])]);
    }
    case 'webhook.updated': {
      const more: string[] = [];
      if (has('url')) more.push(`Now sends to ${text('url') ?? '—'}`);
      if (has('description'))
        more.push(text('description') ? `Description: ${quoted(text('description')!)}` : 'Description removed');
      if (has('eventTypes')) more.push(`Events: ${details.eventTypes === null ? 'all' : listed(details.eventTypes)}`);
      if (has('enabled')) more.push(details.enabled === true ? 'Enabled' : 'Disabled');
      return say(`Changed webhook ${webhook}`, more);
    }
    case 'webhook.deleted':
      return say(`Deleted webhook ${webhook}`);
    case 'webhook.secret_revealed':
      return say(`Revealed the signing secret of webhook ${webhook}`);
    case 'webhook.secret_rotated':
      return say(`Rotated the signing secret of webhook ${webhook}`);
    case 'import.finished': {
      const site = text('site');
      const format = text('format');
      const counts = Object.entries(details)
        .filter((pair): pair is [string, number] => typeof pair[1] === 'number')
        .map(([outcome, n]) => `${n.toLocaleString()} ${outcome}`);
      return say(
        `Imported ${format ? `a ${format} export` : 'content'}${site ? ` from ${site}` : ''}`,
        counts.length > 0 ? [`Items: ${counts.join(', ')}`] : [],
      );
    }
    case 'export.made': {
      const bytes = number('bytes');
      const files = number('files');
      const facts = [bytes === null ? '' : size(bytes), files === null ? '' : plural(files, 'media file')];
      const more = facts.filter(Boolean).join(', ');
      return say(`Exported the workspace${text('file') ? ` to ${text('file')}` : ''}`, more ? [more] : []);
    }
    default:
      return say((entry as { action: string }).action, plainDetails(details));
  }
}
