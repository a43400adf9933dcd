import { call, client } from '../api';
import { keys, useApi } from '../queries';
import { useSession } from '../session';
import type { Pending } from '../types';

/** Who saved a pending set, as the writer knows them: themselves elsewhere, a member by email, or a key. */
export function useWriterName(workspaceId: string, by: Pending['updatedBy'] | null): string {
  const { session } = useSession();
  const other = by?.userId && !by.apiKeyId && by.userId !== session.user.id ? by.userId : null;
  const members = useApi(
    keys.resource(workspaceId, 'members'),
    () => call(client.GET('/workspaces/{workspaceId}/members', { params: { path: { workspaceId } } })),
    { enabled: other !== null },
  );
  if (!by) return 'Another writer';
  // A key writes as the member who made it: it is the key, not that member at a screen, that saved.
  if (by.apiKeyId) return 'An API key';
  if (by.userId === session.user.id) return 'You, in another tab or on another device,';
  return members.data?.find((member) => member.userId === other)?.email ?? 'Another writer';
}
