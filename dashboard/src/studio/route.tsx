import { lazy, Suspense } from 'react';
import { Loading } from '../components/Status';
import { match } from '../router';
import type { WorkspaceSummary } from '../types';

// The editor is a chunk of its own, loaded when a writer opens it: the lists stay as light as they were.
const Studio = lazy(() => import('./Studio'));

export interface StudioView {
  kind: 'studio';
  workspaceId: string;
  resource: 'post' | 'page';
  /** null for a new post or page, not saved yet. */
  id: string | null;
}

/** `/w/:workspaceId/posts/new`, `/w/:workspaceId/posts/:id/edit`, and the same for pages. */
export function studioView(path: string): StudioView | null {
  for (const resource of ['post', 'page'] as const) {
    const fresh = match(`/w/:workspaceId/${resource}s/new`, path);
    if (fresh) return { kind: 'studio', workspaceId: fresh.workspaceId!, resource, id: null };
    const edit = match(`/w/:workspaceId/${resource}s/:id/edit`, path);
    if (edit) return { kind: 'studio', workspaceId: edit.workspaceId!, resource, id: edit.id! };
  }
  return null;
}

export function StudioScreen({ workspace, view }: { workspace: WorkspaceSummary; view: StudioView }) {
  return (
    <Suspense fallback={<Loading label="Opening the editor…" />}>
      {/* Kept across "new" → its id after the first save, so nothing typed meanwhile is lost. */}
      <Studio key={view.resource} workspace={workspace} kind={view.resource} id={view.id} />
    </Suspense>
  );
}
