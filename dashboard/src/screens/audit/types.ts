import type { operations } from '../../api/schema';

type AuditOperation = operations['getWorkspacesAudit'];

export type AuditQuery = NonNullable<AuditOperation['parameters']['query']>;
export type AuditPage = AuditOperation['responses'][200]['content']['application/json'];
export type AuditEntry = AuditPage['data'][number];
export type AuditCategory = NonNullable<AuditQuery['category']>;
