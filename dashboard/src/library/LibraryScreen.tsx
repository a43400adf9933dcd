import { lazy, Suspense } from 'react';
import { Loading } from '../components/Status';
import type { WorkspaceSummary } from '../types';

// Each screen is a chunk of its own, fetched the first time it is opened: the first load stays small.
const AuthorsScreen = lazy(() => import('./AuthorsScreen').then((m) => ({ default: m.AuthorsScreen })));
const CategoriesScreen = lazy(() => import('./CategoriesScreen').then((m) => ({ default: m.CategoriesScreen })));
const TagsScreen = lazy(() => import('./TagsScreen').then((m) => ({ default: m.TagsScreen })));
const RedirectsScreen = lazy(() => import('./RedirectsScreen').then((m) => ({ default: m.RedirectsScreen })));
const LinkHealthScreen = lazy(() => import('./LinkHealthScreen').then((m) => ({ default: m.LinkHealthScreen })));

const SCREENS = {
  authors: AuthorsScreen,
  categories: CategoriesScreen,
  tags: TagsScreen,
  redirects: RedirectsScreen,
  'link-health': LinkHealthScreen,
};

export type LibraryResource = keyof typeof SCREENS;

export function isLibraryResource(resource: string): resource is LibraryResource {
  return Object.hasOwn(SCREENS, resource);
}

/** Authors, categories, tags, redirects and link health: lists the member can manage with `:write`. */
export function LibraryScreen({ workspace, resource }: { workspace: WorkspaceSummary; resource: LibraryResource }) {
  const Screen = SCREENS[resource];
  return (
    <Suspense fallback={<Loading label="Loading…" />}>
      <Screen workspace={workspace} />
    </Suspense>
  );
}
