import { useState, type FormEvent } from 'react';
import { api, ws } from '../api';
import { keys, useWrite } from '../queries';
import { Dialog, DialogActions } from '../components/Dialog';
import { FormAlert } from '../components/Status';
import { can } from '../session';
import { MediaPicker } from '../media/MediaPicker';
import { mediaName, thumbnailUrl } from '../media/thumbnail';
import type { Author, WorkspaceSummary } from '../types';
import { DescribedFields } from '../forms/DescribedFields';
import { labelsOf } from '../forms/describe';
import { AUTHOR_FIELDS } from '../forms/descriptions';
import { SeoFormSection } from '../seo/SeoEditor';
import type { SeoObject } from '../seo/seo-fields';
import { SEO_LABELS, seoIssues } from '../seo/seo-labels';
import { changedFields, fromLines, libraryFeedback, takenSlug, toLines } from './feedback';

type Person = NonNullable<Author['person']>;

const OWN_FIELDS = AUTHOR_FIELDS.filter((field) => !('group' in field));
const PERSON_FIELDS = AUTHOR_FIELDS.filter((field) => 'group' in field);
/** The person's one-line texts, by their key in `person`. */
const PERSON_TEXTS = PERSON_FIELDS.filter((field) => field.kind === 'text').map(
  (field) => field.name.slice('person/'.length) as Exclude<keyof Person, 'knowsAbout'>,
);

const LABELS: Record<string, string> = {
  ...labelsOf(AUTHOR_FIELDS),
  person: 'Person details',
  ...SEO_LABELS,
};

function toValues(author: Author | null): Record<string, string | boolean> {
  const person = author?.person ?? {};
  return {
    displayName: author?.displayName ?? '',
    slug: author?.slug ?? '',
    bio: author?.bio ?? '',
    credentials: author?.credentials ?? '',
    sameAs: toLines(author?.sameAs),
    isActive: author?.isActive ?? true,
    ...Object.fromEntries(PERSON_TEXTS.map((key) => [`person/${key}`, person[key] ?? ''])),
    'person/knowsAbout': toLines(person.knowsAbout),
  };
}

function fromPersonValues(text: (name: string) => string): Person | null {
  const person: Person = {};
  for (const key of PERSON_TEXTS) if (text(`person/${key}`).trim()) person[key] = text(`person/${key}`).trim();
  const topics = fromLines(text('person/knowsAbout'));
  if (topics.length > 0) person.knowsAbout = topics;
  return Object.keys(person).length > 0 ? person : null;
}

interface Props {
  workspace: WorkspaceSummary;
  /** Null to create one. */
  author: Author | null;
  onClose(): void;
  onSaved(author: Author): void;
}

/** Every writable field of an author; the rarely used ones in closed sections. */
export function AuthorForm({ workspace, author, onClose, onSaved }: Props) {
  const [values, setValues] = useState(() => toValues(author));
  const [avatar, setAvatar] = useState<Author['avatarMedia']>(author?.avatarMedia ?? null);
  const stored = (author?.seo as SeoObject | null | undefined) ?? null;
  const [seo, setSeo] = useState(stored);
  const [picking, setPicking] = useState(false);
  const text = (name: string) => String(values[name] ?? '');
  const change = (name: string, value: string | boolean) => setValues((current) => ({ ...current, [name]: value }));
  const save = useWrite(
    (body: Record<string, unknown>) =>
      author
        ? api.patch<Author>(ws(workspace.id, `/authors/${author.id}`), body)
        : api.post<Author>(ws(workspace.id, '/authors'), body),
    [keys.resource(workspace.id, 'authors')],
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, unknown> = {
      displayName: text('displayName').trim(),
      bio: text('bio').trim() || null,
      credentials: text('credentials').trim() || null,
      sameAs: fromLines(text('sameAs')),
      isActive: values.isActive === true,
      avatarMediaId: avatar?.id ?? null,
      person: fromPersonValues(text),
      seo,
    };
    // An empty slug is made from the name on create; on edit it keeps the one the author has.
    if (text('slug').trim()) fields.slug = text('slug').trim();
    const body = author ? changedFields(fields, author) : fields;
    if (Object.keys(body).length === 0) return onClose();
    const saved = await save.execute(body);
    if (saved) onSaved(saved);
  };
  const feedback = libraryFeedback(save.error, LABELS, takenSlug('author'));
  const personRefused = Object.keys(feedback.fields).some((key) => key.startsWith('person'));

  return (
    <>
      <Dialog title={author ? `Edit author “${author.displayName}”` : 'Add an author'} onClose={onClose}>
        <form onSubmit={submit} className="stack" noValidate>
          <DescribedFields
            fields={OWN_FIELDS}
            values={values}
            errors={feedback.fields}
            onChange={change}
            hints={{
              slug: author
                ? 'Part of the author’s address; changing it changes that address.'
                : 'Leave empty to make one from the name.',
            }}
            autofocus="displayName"
            custom={{
              avatarMediaId: (
                <fieldset className="field avatar-field">
                  <legend>{LABELS.avatarMediaId}</legend>
                  <div className="avatar-row">
                    {avatar ? (
                      <img className="avatar" src={thumbnailUrl(avatar, 160)} alt={mediaName(avatar)} />
                    ) : (
                      <span className="hint">No avatar.</span>
                    )}
                    {can(workspace, 'media:read') && (
                      <button type="button" onClick={() => setPicking(true)}>
                        {avatar ? 'Change avatar' : 'Choose avatar'}
                      </button>
                    )}
                    {avatar && (
                      <button type="button" onClick={() => setAvatar(null)}>
                        Remove avatar
                      </button>
                    )}
                  </div>
                  {feedback.fields.avatarMediaId && <p className="field-error">{feedback.fields.avatarMediaId}</p>}
                </fieldset>
              ),
            }}
          />
          <details className="form-section" open={personRefused || undefined}>
            <summary>Person details (for search engines)</summary>
            <div className="stack">
              {feedback.fields.person && <p className="field-error">{feedback.fields.person}</p>}
              <DescribedFields fields={PERSON_FIELDS} values={values} errors={feedback.fields} onChange={change} />
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
            label={author ? 'Save author' : 'Add author'}
            pendingLabel="Saving…"
          />
        </form>
      </Dialog>
      {/* Beside the form's dialog, not inside it: the picker is a modal of its own, over this one. */}
      <MediaPicker
        workspaceId={workspace.id}
        open={picking}
        onClose={() => setPicking(false)}
        onPick={(media) => {
          setAvatar(media);
          setPicking(false);
        }}
      />
    </>
  );
}
