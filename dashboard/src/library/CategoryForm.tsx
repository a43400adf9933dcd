import { useState, type FormEvent } from 'react';
import type { ApiError } from '../api';
import { keys, useWrite } from '../queries';
import { api, ws } from '../api';
import { Dialog, DialogActions } from '../components/Dialog';
import { Field } from '../components/Field';
import { FormAlert } from '../components/Status';
import type { Category, WorkspaceSummary } from '../types';
import { parentOptions } from './category-tree';
import { changedFields, libraryFeedback, takenSlug, type Explained } from './feedback';
import { Checkbox, Select, TextArea } from './inputs';
import { fromSeoDraft, SEO_LABELS, SeoFields, toSeoDraft } from './SeoFields';

const LABELS: Record<string, string> = {
  name: 'Name',
  slug: 'Slug',
  description: 'Description',
  parentId: 'Parent',
  sortOrder: 'Position',
  isActive: 'Active',
  'collectionMetadata/includeChildCategories': 'Include subcategories’ posts',
  'collectionMetadata/sortPostsBy': 'Sort its posts by',
  collectionMetadata: 'Category page',
  ...SEO_LABELS,
};

const SORTS = [
  { value: 'publishedAt', label: 'Publication date' },
  { value: 'createdAt', label: 'Creation date' },
  { value: 'updatedAt', label: 'Last update' },
  { value: 'title', label: 'Title' },
];

/** A refused parent (a cycle, itself, gone) and a taken slug, in words. */
function explainer(items: Category[], moving: Category | null, parentId: string) {
  const slug = takenSlug('category');
  return (error: ApiError): Explained | null => {
    const issue = Array.isArray(error.details?.issues)
      ? (error.details.issues as Array<{ path?: string; message?: string }>)[0]
      : undefined;
    if (error.status === 400 && issue?.path === '/parentId') {
      const parent = items.find((c) => c.id === parentId)?.name ?? 'the new parent';
      const name = moving?.name ?? 'this category';
      if (/descendant/.test(issue.message ?? ''))
        return {
          field: 'parentId',
          message: `“${parent}” is inside “${name}” (it may have been moved there since this page was loaded), so “${name}” cannot go under it: a category cannot sit inside itself. Choose another parent.`,
        };
      if (/own parent/.test(issue.message ?? ''))
        return { field: 'parentId', message: 'A category cannot be its own parent. Choose another one.' };
      if (/no category/.test(issue.message ?? ''))
        return {
          field: 'parentId',
          message: `“${parent}” no longer exists. Reload the page and choose another parent.`,
        };
    }
    return slug(error);
  };
}

interface Props {
  workspace: WorkspaceSummary;
  /** Every category, for the parent list. */
  items: Category[];
  /** Null to create one. */
  category: Category | null;
  onClose(): void;
  onSaved(category: Category): void;
}

export function CategoryForm({ workspace, items, category, onClose, onSaved }: Props) {
  const [name, setName] = useState(category?.name ?? '');
  const [slug, setSlug] = useState(category?.slug ?? '');
  const [description, setDescription] = useState(category?.description ?? '');
  const [parentId, setParentId] = useState(category?.parentId ?? '');
  const [sortOrder, setSortOrder] = useState(String(category?.sortOrder ?? 0));
  const [isActive, setIsActive] = useState(category?.isActive ?? true);
  const [includeChildren, setIncludeChildren] = useState(category?.collectionMetadata?.includeChildCategories ?? false);
  const [sortPostsBy, setSortPostsBy] = useState<string>(category?.collectionMetadata?.sortPostsBy ?? 'publishedAt');
  const [seo, setSeo] = useState(() => toSeoDraft(category?.seo));
  const save = useWrite(
    (body: Record<string, unknown>) =>
      category
        ? api.patch<Category>(ws(workspace.id, `/categories/${category.id}`), body)
        : api.post<Category>(ws(workspace.id, '/categories'), body),
    [keys.resource(workspace.id, 'categories')],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, unknown> = {
      name: name.trim(),
      description: description.trim() || null,
      parentId: parentId || null,
      // Not a number is sent as typed, so the server names the field.
      sortOrder: /^-?\d+$/.test(sortOrder.trim()) ? Number(sortOrder.trim()) : sortOrder,
      isActive,
      collectionMetadata: { includeChildCategories: includeChildren, sortPostsBy },
      seo: fromSeoDraft(seo, category?.seo),
    };
    if (slug.trim()) fields.slug = slug.trim();
    const body = category ? changedFields(fields, category) : fields;
    if (Object.keys(body).length === 0) return onClose();
    const saved = await save.execute(body);
    if (saved) onSaved(saved);
  };
  const feedback = libraryFeedback(save.error, LABELS, explainer(items, category, parentId));

  return (
    <Dialog title={category ? `Edit category “${category.name}”` : 'Add a category'} onClose={onClose}>
      <form onSubmit={submit} className="stack" noValidate>
        <Field
          label="Name"
          maxLength={100}
          error={feedback.fields.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
          data-autofocus
        />
        <Field
          label="Slug"
          className="field-mono"
          hint={
            category
              ? 'Part of the address of this category and of everything under it.'
              : 'Leave empty to make one from the name.'
          }
          error={feedback.fields.slug}
          value={slug}
          onChange={(e) => setSlug(e.target.value)}
        />
        <Select
          label="Parent"
          options={parentOptions(items, category?.id ?? null)}
          error={feedback.fields.parentId}
          value={parentId}
          onChange={(e) => setParentId(e.target.value)}
        />
        <TextArea
          label="Description"
          error={feedback.fields.description}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <Field
          label="Position"
          inputMode="numeric"
          hint="Categories with a lower number come first among their siblings."
          error={feedback.fields.sortOrder}
          value={sortOrder}
          onChange={(e) => setSortOrder(e.target.value)}
        />
        <Checkbox
          label="Active"
          hint="Inactive categories keep their posts but are not offered for new ones."
          checked={isActive}
          onChange={(e) => setIsActive(e.target.checked)}
        />
        <details className="form-section">
          <summary>Category page</summary>
          <div className="stack">
            <Checkbox
              label={LABELS['collectionMetadata/includeChildCategories']!}
              hint="The page lists the posts of every category under this one as well."
              checked={includeChildren}
              onChange={(e) => setIncludeChildren(e.target.checked)}
            />
            <Select
              label={LABELS['collectionMetadata/sortPostsBy']!}
              options={SORTS}
              value={sortPostsBy}
              onChange={(e) => setSortPostsBy(e.target.value)}
            />
          </div>
        </details>
        <SeoFields draft={seo} onChange={setSeo} errors={feedback.fields} />
        <FormAlert summary={feedback.summary} />
        <DialogActions
          onCancel={onClose}
          pending={save.pending}
          label={category ? 'Save category' : 'Add category'}
          pendingLabel="Saving…"
        />
      </form>
    </Dialog>
  );
}

interface MoveProps {
  workspace: WorkspaceSummary;
  items: Category[];
  category: Category;
  onClose(): void;
  onMoved(category: Category): void;
}

/** Move a category (and its branch) under another parent, or to the top level. */
export function MoveCategoryDialog({ workspace, items, category, onClose, onMoved }: MoveProps) {
  const [parentId, setParentId] = useState(category.parentId ?? '');
  const move = useWrite(
    (parent: string | null) =>
      api.patch<Category>(ws(workspace.id, `/categories/${category.id}`), { parentId: parent }),
    [keys.resource(workspace.id, 'categories')],
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (parentId === (category.parentId ?? '')) return onClose();
    const moved = await move.execute(parentId || null);
    if (moved) onMoved(moved);
  };
  const feedback = libraryFeedback(move.error, { parentId: 'New parent' }, explainer(items, category, parentId));
  return (
    <Dialog title={`Move “${category.name}”`} onClose={onClose}>
      <form onSubmit={submit} className="stack">
        <Select
          label="New parent"
          hint="Its subcategories move with it, and their addresses change with its path."
          options={parentOptions(items, category.id)}
          error={feedback.fields.parentId}
          value={parentId}
          onChange={(e) => setParentId(e.target.value)}
          data-autofocus
        />
        <FormAlert summary={feedback.summary} />
        <DialogActions onCancel={onClose} pending={move.pending} label="Move category" pendingLabel="Moving…" />
      </form>
    </Dialog>
  );
}
