import { useEffect, useState, type FormEvent } from 'react';
import { api, ws } from '../api';
import { keys, useWrite } from '../queries';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormAlert } from '../components/Status';
import { can } from '../session';
import type { Tag, WorkspaceSummary } from '../types';
import { DeleteDialog, postsMatching } from './DeleteDialog';
import { changedFields, count, libraryFeedback, takenSlug } from './feedback';
import {
  Done,
  LibraryTable,
  ScreenHeader,
  SearchForm,
  time,
  useLibraryList,
  type Column,
  useScreenActions,
  RowActions,
} from './list';
import { SeoFormSection } from '../seo/SeoEditor';
import type { SeoObject } from '../seo/seo-fields';
import { SEO_LABELS, seoIssues } from '../seo/seo-labels';
import { DescribedFields } from '../forms/DescribedFields';
import { labelsOf } from '../forms/describe';
import { TAG_FIELDS } from '../forms/descriptions';

type Action = { kind: 'create' } | { kind: 'edit' | 'delete'; tag: Tag };

const COLUMNS: Column<Tag>[] = [
  { label: 'Name', cell: (t) => t.name },
  { label: 'Slug', cell: (t) => <span className="mono">{t.slug}</span> },
  { label: 'Created', cell: (t) => time(t.createdAt) },
];

const LABELS: Record<string, string> = { ...labelsOf(TAG_FIELDS), ...SEO_LABELS };

export function TagsScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const { list, q, updateSearch } = useLibraryList<Tag>(workspace, 'tags');
  const { action, setAction, done, finish } = useScreenActions<Action>(list.reload);
  const writable = can(workspace, 'tags:write');

  return (
    <>
      <ScreenHeader
        title="Tags"
        action={
          writable && (
            <button type="button" className="button-primary" onClick={() => setAction({ kind: 'create' })}>
              Add tag
            </button>
          )
        }
      />
      <p className="lead">Labels attached to posts.</p>
      <SearchForm label="Search tags" q={q} onSearch={(text) => updateSearch({ q: text, page: '' })} />
      <Done message={done} />
      <LibraryTable
        title="Tags"
        plural="tags"
        list={list}
        q={q}
        columns={COLUMNS}
        onPage={(p) => updateSearch({ page: p > 1 ? String(p) : '' })}
        actions={
          writable
            ? (tag) => (
                <RowActions
                  name={tag.name}
                  editLabel="Rename"
                  onEdit={() => setAction({ kind: 'edit', tag })}
                  onDelete={() => setAction({ kind: 'delete', tag })}
                />
              )
            : undefined
        }
      />
      {(action?.kind === 'create' || action?.kind === 'edit') && (
        <TagForm
          workspace={workspace}
          tag={action.kind === 'edit' ? action.tag : null}
          onClose={() => setAction(null)}
          onSaved={(tag) => finish(action.kind === 'edit' ? `Tag saved as “${tag.name}”.` : `Tag “${tag.name}” added.`)}
        />
      )}
      {action?.kind === 'delete' && (
        <DeleteTagDialog workspace={workspace} tag={action.tag} onClose={() => setAction(null)} onDeleted={finish} />
      )}
    </>
  );
}

interface FormProps {
  workspace: WorkspaceSummary;
  tag: Tag | null;
  onClose(): void;
  onSaved(tag: Tag): void;
}

function TagForm({ workspace, tag, onClose, onSaved }: FormProps) {
  const [values, setValues] = useState({ name: tag?.name ?? '', slug: tag?.slug ?? '' });
  const stored = (tag?.seo as SeoObject | null | undefined) ?? null;
  const [seo, setSeo] = useState(stored);
  const save = useWrite(
    (body: Record<string, unknown>) =>
      tag ? api.patch<Tag>(ws(workspace.id, `/tags/${tag.id}`), body) : api.post<Tag>(ws(workspace.id, '/tags'), body),
    [keys.resource(workspace.id, 'tags')],
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, unknown> = { name: values.name.trim(), seo };
    if (values.slug.trim()) fields.slug = values.slug.trim();
    const body = tag ? changedFields(fields, tag) : fields;
    if (Object.keys(body).length === 0) return onClose();
    const saved = await save.execute(body);
    if (saved) onSaved(saved);
  };
  const feedback = libraryFeedback(save.error, LABELS, takenSlug('tag'));
  return (
    <Dialog title={tag ? `Rename tag “${tag.name}”` : 'Add a tag'} onClose={onClose}>
      <form onSubmit={submit} className="stack" noValidate>
        <DescribedFields
          fields={TAG_FIELDS}
          values={values}
          errors={feedback.fields}
          onChange={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
          hints={{
            slug: tag
              ? 'Part of the tag’s address; a new name keeps it unless you change it here.'
              : 'Leave empty to make one from the name.',
          }}
          autofocus="name"
        />
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
          label={tag ? 'Save tag' : 'Add tag'}
          pendingLabel="Saving…"
        />
      </form>
    </Dialog>
  );
}

interface DeleteProps {
  workspace: WorkspaceSummary;
  tag: Tag;
  onClose(): void;
  onDeleted(message: string): void;
}

/** Says, before it is done, how many posts lose the tag (when this member may read posts). */
function DeleteTagDialog({ workspace, tag, onClose, onDeleted }: DeleteProps) {
  const [posts, setPosts] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void postsMatching(workspace, { tagId: tag.id }).then((n) => live && setPosts(n));
    return () => {
      live = false;
    };
  }, [workspace, tag.id]);
  const from =
    posts === undefined || posts === null
      ? 'every post that carries it'
      : posts === 0
        ? 'no post: none carries it'
        : posts === 1
          ? 'the one post that carries it'
          : `the ${count(posts, 'post')} that carry it`;
  return (
    <DeleteDialog
      title={`Delete tag “${tag.name}”?`}
      confirmLabel="Delete tag"
      workspace={workspace}
      path={`/tags/${tag.id}`}
      onClose={onClose}
      onDeleted={() => onDeleted(`Tag “${tag.name}” deleted.`)}
    >
      <p>
        Deleting the tag removes it from {from}. The posts themselves stay as they are, with their other tags. This
        cannot be undone.
      </p>
    </DeleteDialog>
  );
}
