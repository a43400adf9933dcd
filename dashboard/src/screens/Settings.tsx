import { useEffect, useId, useState, type FormEvent } from 'react';
import { call, client } from '../api';
import { keys, useApi, useWrite } from '../queries';
import { useCopy } from '../components/copy';
import { ErrorMessage, FormAlert, Loading } from '../components/Status';
import { formFeedback } from '../form-errors';
import { LogoField } from '../media/LogoField';
import { DescribedFields } from '../forms/DescribedFields';
import { labelsOf } from '../forms/describe';
import { SETTINGS_FIELDS } from '../forms/descriptions';
import type { SiteSettings, WorkspaceSummary } from '../types';

type Key = keyof SiteSettings;

type Draft = Record<Key, string>;

const LABELS = labelsOf(SETTINGS_FIELDS);

function toDraft(settings: SiteSettings): Draft {
  return Object.fromEntries(SETTINGS_FIELDS.map(({ name }) => [name, settings[name] ?? ''])) as Draft;
}

export function SettingsScreen({ workspace }: { workspace: WorkspaceSummary }) {
  const settings = useApi(keys.resource(workspace.id, 'settings'), () =>
    call(client.GET('/workspaces/{workspaceId}/settings', { params: { path: { workspaceId: workspace.id } } })),
  );
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useWrite(
    (body: Partial<SiteSettings>) =>
      call(
        client.PATCH('/workspaces/{workspaceId}/settings', { params: { path: { workspaceId: workspace.id } }, body }),
      ),
    [keys.resource(workspace.id, 'settings')],
  );

  useEffect(() => {
    if (settings.state === 'ready') setDraft(toDraft(settings.data));
  }, [settings.state, settings.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft || !settings.data) return;
    // A partial update of what changed; an emptied field is null, which clears it.
    const body: Partial<Record<Key, string | null>> = {};
    for (const { name: key } of SETTINGS_FIELDS) {
      const value = draft[key].trim();
      if (value !== (settings.data[key] ?? '')) body[key] = value === '' ? null : value;
    }
    setSaved(false);
    if (Object.keys(body).length === 0) return setSaved(true);
    const result = await save.execute(body);
    if (result) {
      setDraft(toDraft(result));
      setSaved(true);
      settings.reload();
    }
  };

  const editable = workspace.isOwner;
  const feedback = formFeedback(save.error, LABELS);
  return (
    <>
      <h1>Site settings</h1>
      <p className="lead">Used to build absolute URLs and the publisher in each post’s structured data.</p>
      <WorkspaceSlug slug={workspace.slug} />
      {!editable && <p className="notice">Only the workspace owner can change these settings.</p>}
      {settings.state === 'error' && <ErrorMessage error={settings.error} onRetry={settings.reload} />}
      {settings.state === 'loading' && !draft && <Loading label="Loading settings…" />}
      {draft && (
        <form onSubmit={submit} className="stack form-wide">
          {(['site', 'urls'] as const).map((group) => (
            <fieldset key={group} className="panel">
              <legend>{group === 'site' ? 'Site and publisher' : 'URL patterns'}</legend>
              <DescribedFields
                fields={SETTINGS_FIELDS.filter((field) => field.group === group)}
                values={draft}
                errors={feedback.fields}
                readOnly={!editable}
                onChange={(name, value) => {
                  setSaved(false);
                  setDraft({ ...draft, [name]: value });
                }}
                custom={{
                  logoMediaId: (
                    <LogoField
                      workspaceId={workspace.id}
                      value={draft.logoMediaId}
                      readOnly={!editable}
                      error={feedback.fields.logoMediaId}
                      onChange={(id) => {
                        setSaved(false);
                        setDraft({ ...draft, logoMediaId: id });
                      }}
                    />
                  ),
                }}
              />
            </fieldset>
          ))}
          <FormAlert summary={feedback.summary} />
          <div className="actions actions-start">
            {editable && (
              <button type="submit" className="button-primary" disabled={save.pending}>
                {save.pending ? 'Saving…' : 'Save settings'}
              </button>
            )}
            <p role="status" className="success-text">
              {saved ? 'Settings saved.' : ''}
            </p>
          </div>
        </form>
      )}
    </>
  );
}

/** The slug the `quire` command names this workspace by (`--workspace`), ready to copy. */
function WorkspaceSlug({ slug }: { slug: string }) {
  const id = useId();
  const { copy, status } = useCopy(slug, id);
  return (
    <section className="panel form-wide" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Workspace slug</h2>
      <div className="field">
        <label htmlFor={id}>Slug</label>
        <div className="secret-row">
          <input id={id} className="mono" readOnly value={slug} onFocus={(event) => event.currentTarget.select()} />
          <button type="button" onClick={() => void copy()}>
            Copy<span className="visually-hidden"> the slug</span>
          </button>
        </div>
        <p className="hint" role="status">
          {status}
        </p>
        <p className="hint">
          The <code>quire</code> command names the workspace by it: <code>npx quire key list --workspace {slug}</code>.
          It stays the same when the workspace is renamed.
        </p>
      </div>
    </section>
  );
}
