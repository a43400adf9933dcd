import { lazy, Suspense } from 'react';
import { Loading } from '../components/Status';
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

/** `/w/:workspaceId/posts/new`, `…/posts/:id/edit`, and the same for pages; null for another collection. */
export function studioView(workspaceId: string, collection: string, id: string | null): StudioView | null {
  const resource = collection === 'posts' ? 'post' : collection === 'pages' ? 'page' : null;
  return resource ? { kind: 'studio', workspaceId, resource, id } : null;
}

export function StudioScreen({ workspace, view }: { workspace: WorkspaceSummary; view: StudioView }) {
  return (
    <Suspense fallback={<Loading label="Opening the editor…" />}>
      {/* Kept across "new" → its id after the first save, so nothing typed meanwhile is lost. */}
      <Studio key={view.resource} workspace={workspace} kind={view.resource} id={view.id} />
    </Suspense>
  );
}
