import { useState, type ReactNode } from 'react';
import { api, ApiError, ws } from '../api';
import { keys, useWrite } from '../queries';
import { ConfirmDialog } from '../components/Dialog';
import { ErrorMessage } from '../components/Status';
import { can } from '../session';
import type { Paginated, WorkspaceSummary } from '../types';

interface Props {
  title: string;
  confirmLabel: string;
  /** The API path of the row, under the workspace. */
  path: string;
  workspace: WorkspaceSummary;
  /** What a 409 means for this row, in words (it is still in use); it may ask the server how much. */
  explainConflict?(error: ApiError): Promise<ReactNode>;
  onClose(): void;
  onDeleted(): void;
  /** What deleting does, said before it is done. */
  children: ReactNode;
}

export function DeleteDialog({
  title,
  confirmLabel,
  path,
  workspace,
  explainConflict,
  onClose,
  onDeleted,
  children,
}: Props) {
  const [conflict, setConflict] = useState<ReactNode>(null);
  const remove = useWrite(async () => {
    setConflict(null);
    try {
      return await api.delete<unknown>(ws(workspace.id, path));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409 || !explainConflict) throw error;
      setConflict(await explainConflict(error));
      return null;
    }
  }, [keys.resource(workspace.id, path.split('/')[1]!)]);
  const refusal =
    remove.error !== null ? (
      <ErrorMessage error={remove.error} />
    ) : conflict ? (
      <div className="notice notice-error" role="alert">
        {conflict}
      </div>
    ) : null;
  return (
    <ConfirmDialog
      title={title}
      confirmLabel={confirmLabel}
      danger
      pending={remove.pending}
      error={refusal}
      onCancel={onClose}
      onConfirm={async () => {
        if (await remove.execute()) onDeleted();
      }}
    >
      {children}
    </ConfirmDialog>
  );
}

/**
 * How many live posts a filter of the posts list matches (`authorId`, `tagId`): its `total`, one row fetched.
 * Null without `posts:read`, or when the list cannot be read.
 */
export async function postsMatching(
  workspace: WorkspaceSummary,
  filter: Record<string, string>,
): Promise<number | null> {
  if (!can(workspace, 'posts:read')) return null;
  try {
    const page = await api.get<Paginated<unknown>>(ws(workspace.id, '/posts'), { ...filter, pageSize: 1 });
    return page.total;
  } catch {
    return null;
  }
}
