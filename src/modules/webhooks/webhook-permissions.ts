import { invalid, type ValidationIssue } from '../../errors.js';
import { READ_PERMISSION, resourceTypeOf } from '../../writes/event-types.js';
import type { ResourceType } from '../../writes/changes.js';
import type { Permission } from '../../security/permissions.js';

/** What decides which events an endpoint may carry: its user's standing in the workspace, read afresh each time. */
export interface Reader {
  isOwner: boolean;
  permissions: ReadonlySet<Permission>;
}

const RESOURCE_TYPES = Object.keys(READ_PERMISSION) as ResourceType[];

/**
 * The permission `reader` lacks to be sent an event of this type; undefined when it may be sent. An event about
 * no resource (`webhook.test`) carries nothing to read.
 */
export function missingPermission(reader: Reader, eventType: string): Permission | undefined {
  const type = resourceTypeOf(eventType);
  if (type === undefined || reader.isOwner) return undefined;
  const permission = READ_PERMISSION[type];
  return reader.permissions.has(permission) ? undefined : permission;
}

/**
 * Refuses a subscription its user could not be sent: each listed type it may not read is an issue at its index;
 * no list (every type, those added later included) needs every read permission.
 */
export function requireReadable(reader: Reader, eventTypes: readonly string[] | null): void {
  if (eventTypes === null) {
    const lacking = [
      ...new Set(
        RESOURCE_TYPES.map((type) => READ_PERMISSION[type]).filter(
          (p) => !reader.isOwner && !reader.permissions.has(p),
        ),
      ),
    ];
    if (lacking.length > 0)
      throw invalid([
        {
          in: 'body',
          path: '/eventTypes',
          message: `Without eventTypes an endpoint is sent every event, and this key's creator lacks ${lacking.join(', ')}: list the event types it may read`,
        },
      ]);
    return;
  }
  const issues: ValidationIssue[] = [];
  eventTypes.forEach((eventType, index) => {
    const permission = missingPermission(reader, eventType);
    if (permission !== undefined)
      issues.push({
        in: 'body',
        path: `/eventTypes/${index}`,
        message: `This key's creator lacks ${permission}, which ${eventType} events need`,
      });
  });
  if (issues.length > 0) throw invalid(issues);
}
