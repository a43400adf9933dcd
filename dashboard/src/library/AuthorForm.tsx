import { useState, type FormEvent } from 'react';
import { api, ws } from '../api';
import { keys, useWrite } from '../queries';
import { Dialog, DialogActions } from '../components/Dialog';
import { Field } from '../components/Field';
import { FormAlert } from '../components/Status';
import { can } from '../session';
import { MediaPicker } from '../media/MediaPicker';
import { mediaName, thumbnailUrl } from '../media/thumbnail';
import type { Author, WorkspaceSummary } from '../types';
import { changedFields, fromLines, libraryFeedback, takenSlug, toLines } from './feedback';
import { Checkbox, TextArea } from './inputs';
import { fromSeoDraft, SEO_LABELS, SeoFields, toSeoDraft, type SeoDraft } from './SeoFields';

type Person = NonNullable<Author['person']>;
const PERSON_TEXTS = ['jobTitle', 'worksFor', 'alumniOf', 'award', 'honorificPrefix', 'honorificSuffix'] as const;
type PersonDraft = Record<(typeof PERSON_TEXTS)[number] | 'knowsAbout', string>;

const PERSON_LABELS: Record<(typeof PERSON_TEXTS)[number], string> = {
  jobTitle: 'Job title',
  worksFor: 'Works for',
  alumniOf: 'Studied at',
  award: 'Award',
  honorificPrefix: 'Title before the name',
  honorificSuffix: 'Letters after the name',
};

const LABELS: Record<string, string> = {
  displayName: 'Name',
  slug: 'Slug',
  bio: 'Bio',
  credentials: 'Credentials',
  sameAs: 'Profiles elsewhere',
  isActive: 'Active',
  avatarMediaId: 'Avatar',
  ...Object.fromEntries(PERSON_TEXTS.map((key) => [`person/${key}`, PERSON_LABELS[key]])),
  'person/knowsAbout': 'Knows about',
  person: 'Person details',
  ...SEO_LABELS,
};

interface Draft {
  displayName: string;
  slug: string;
  bio: string;
  credentials: string;
  sameAs: string;
  isActive: boolean;
  avatar: Author['avatarMedia'];
  person: PersonDraft;
  seo: SeoDraft;
}

function toDraft(author: Author | null): Draft {
  const person = author?.person ?? {};
  return {
    displayName: author?.displayName ?? '',
    slug: author?.slug ?? '',
    bio: author?.bio ?? '',
    credentials: author?.credentials ?? '',
    sameAs: toLines(author?.sameAs),
    isActive: author?.isActive ?? true,
    avatar: author?.avatarMedia ?? null,
    person: {
      ...(Object.fromEntries(PERSON_TEXTS.map((key) => [key, person[key] ?? ''])) as Record<
        (typeof PERSON_TEXTS)[number],
        string
      >),
      knowsAbout: toLines(person.knowsAbout),
    },
    seo: toSeoDraft(author?.seo),
  };
}

function fromPersonDraft(draft: PersonDraft): Person | null {
  const person: Person = {};
  for (const key of PERSON_TEXTS) if (draft[key].trim()) person[key] = draft[key].trim();
  const topics = fromLines(draft.knowsAbout);
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
  const [draft, setDraft] = useState(() => toDraft(author));
  const [picking, setPicking] = useState(false);
  const set = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));
  const setPerson = (changes: Partial<PersonDraft>) =>
    setDraft((current) => ({ ...current, person: { ...current.person, ...changes } }));
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
      displayName: draft.displayName.trim(),
      bio: draft.bio.trim() || null,
      credentials: draft.credentials.trim() || null,
      sameAs: fromLines(draft.sameAs),
      isActive: draft.isActive,
      avatarMediaId: draft.avatar?.id ?? null,
      person: fromPersonDraft(draft.person),
      seo: fromSeoDraft(draft.seo, author?.seo),
    };
    // An empty slug is made from the name on create; on edit it keeps the one the author has.
    if (draft.slug.trim()) fields.slug = draft.slug.trim();
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
          <Field
            label={LABELS.displayName!}
            required
            maxLength={100}
            error={feedback.fields.displayName}
            value={draft.displayName}
            onChange={(e) => set({ displayName: e.target.value })}
            data-autofocus
          />
          <Field
            label={LABELS.slug!}
            className="mono"
            hint={
              author
                ? 'Part of the author’s address; changing it changes that address.'
                : 'Leave empty to make one from the name.'
            }
            error={feedback.fields.slug}
            value={draft.slug}
            onChange={(e) => set({ slug: e.target.value })}
          />
          <fieldset className="field avatar-field">
            <legend>{LABELS.avatarMediaId}</legend>
            <div className="avatar-row">
              {draft.avatar ? (
                <img className="avatar" src={thumbnailUrl(draft.avatar, 160)} alt={mediaName(draft.avatar)} />
              ) : (
                <span className="hint">No avatar.</span>
              )}
              {can(workspace, 'media:read') && (
                <button type="button" onClick={() => setPicking(true)}>
                  {draft.avatar ? 'Change avatar' : 'Choose avatar'}
                </button>
              )}
              {draft.avatar && (
                <button type="button" onClick={() => set({ avatar: null })}>
                  Remove avatar
                </button>
              )}
            </div>
            {feedback.fields.avatarMediaId && <p className="field-error">{feedback.fields.avatarMediaId}</p>}
          </fieldset>
          <TextArea
            label={LABELS.bio!}
            rows={4}
            error={feedback.fields.bio}
            value={draft.bio}
            onChange={(e) => set({ bio: e.target.value })}
          />
          <Field
            label={LABELS.credentials!}
            hint="Qualifications readers should know, such as “Registered dietitian”."
            error={feedback.fields.credentials}
            value={draft.credentials}
            onChange={(e) => set({ credentials: e.target.value })}
          />
          <TextArea
            label={LABELS.sameAs!}
            hint="Full addresses of the author’s other profiles, one a line."
            error={feedback.fields.sameAs}
            value={draft.sameAs}
            onChange={(e) => set({ sameAs: e.target.value })}
          />
          <Checkbox
            label="Active"
            hint="Inactive authors stay on their posts but are not offered for new ones."
            checked={draft.isActive}
            onChange={(e) => set({ isActive: e.target.checked })}
          />
          <details className="form-section" open={personRefused || undefined}>
            <summary>Person details (for search engines)</summary>
            <div className="stack">
              {feedback.fields.person && <p className="field-error">{feedback.fields.person}</p>}
              {PERSON_TEXTS.map((key) => (
                <Field
                  key={key}
                  label={PERSON_LABELS[key]}
                  error={feedback.fields[`person/${key}`]}
                  value={draft.person[key]}
                  onChange={(e) => setPerson({ [key]: e.target.value })}
                />
              ))}
              <TextArea
                label={LABELS['person/knowsAbout']!}
                hint="Topics, one a line."
                error={feedback.fields['person/knowsAbout']}
                value={draft.person.knowsAbout}
                onChange={(e) => setPerson({ knowsAbout: e.target.value })}
              />
            </div>
          </details>
          <SeoFields draft={draft.seo} onChange={(seo) => set({ seo })} errors={feedback.fields} />
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
          set({ avatar: media });
          setPicking(false);
        }}
      />
    </>
  );
}
