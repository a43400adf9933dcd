import { useState, type FormEvent } from 'react';
import type { ApiError } from '../api';
import { keys, useWrite } from '../queries';
import { api, ws } from '../api';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormAlert } from '../components/Status';
import type { Category, WorkspaceSummary } from '../types';
import { parentOptions } from './category-tree';
import { changedFields, libraryFeedback, takenSlug, type Explained } from './feedback';
import { Select } from './inputs';
import { SeoFormSection } from '../seo/SeoEditor';
import type { SeoObject } from '../seo/seo-fields';
import { SEO_LABELS, seoIssues } from '../seo/seo-labels';
import { DescribedFields } from '../forms/DescribedFields';
import { labelsOf } from '../forms/describe';
import { CATEGORY_FIELDS } from '../forms/descriptions';

const LABELS: Record<string, string> = {
  ...labelsOf(CATEGORY_FIELDS),
  collectionMetadata: 'Category page',
  ...SEO_LABELS,
};
const OWN_FIELDS = CATEGORY_FIELDS.filter((field) => !('group' in field));
const PAGE_FIELDS = CATEGORY_FIELDS.filter((field) => 'group' in field);

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
  const [values, setValues] = useState<Record<string, string | boolean>>({
    name: category?.name ?? '',
    slug: category?.slug ?? '',
    parentId: category?.parentId ?? '',
    description: category?.description ?? '',
    sortOrder: String(category?.sortOrder ?? 0),
    isActive: category?.isActive ?? true,
    'collectionMetadata/includeChildCategories': category?.collectionMetadata?.includeChildCategories ?? false,
    'collectionMetadata/sortPostsBy': category?.collectionMetadata?.sortPostsBy ?? 'publishedAt',
  });
  const text = (name: string) => String(values[name]);
  const stored = (category?.seo as SeoObject | null | undefined) ?? null;
  const [seo, setSeo] = useState(stored);
  const save = useWrite(
    (body: Record<string, unknown>) =>
      category
        ? api.patch<Category>(ws(workspace.id, `/categories/${category.id}`), body)
        : api.post<Category>(ws(workspace.id, '/categories'), body),
    [keys.resource(workspace.id, 'categories')],
  );

  const change = (name: string, value: string | boolean) => setValues((current) => ({ ...current, [name]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const sortOrder = text('sortOrder');
    const fields: Record<string, unknown> = {
      name: text('name').trim(),
      description: text('description').trim() || null,
      parentId: text('parentId') || null,
      // Not a number is sent as typed, so the server names the field.
      sortOrder: /^-?\d+$/.test(sortOrder.trim()) ? Number(sortOrder.trim()) : sortOrder,
      isActive: values.isActive === true,
      collectionMetadata: {
        includeChildCategories: values['collectionMetadata/includeChildCategories'] === true,
        sortPostsBy: text('collectionMetadata/sortPostsBy'),
      },
      seo,
    };
    if (text('slug').trim()) fields.slug = text('slug').trim();
    const body = category ? changedFields(fields, category) : fields;
    if (Object.keys(body).length === 0) return onClose();
    const saved = await save.execute(body);
    if (saved) onSaved(saved);
  };
  const feedback = libraryFeedback(save.error, LABELS, explainer(items, category, text('parentId')));

  return (
    <Dialog title={category ? `Edit category “${category.name}”` : 'Add a category'} onClose={onClose}>
      <form onSubmit={submit} className="stack" noValidate>
        <DescribedFields
          fields={OWN_FIELDS}
          values={values}
          errors={feedback.fields}
          onChange={change}
          hints={{
            slug: category
              ? 'Part of the address of this category and of everything under it.'
              : 'Leave empty to make one from the name.',
          }}
          options={{ parentId: parentOptions(items, category?.id ?? null) }}
          autofocus="name"
        />
        <details className="form-section">
          <summary>Category page</summary>
          <div className="stack">
            <DescribedFields fields={PAGE_FIELDS} values={values} errors={feedback.fields} onChange={change} />
          </div>
        </details>
        <SeoFormSection
          value={seo}
          saved={stored}
          onChange={setSeo}
          errors={seoIssues(feedback.fields)}
          workspaceId={workspace.id}
          hints={{ title: 'Shown as the title in search results; the name is used when empty.' }}
        />
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
