import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { keys, useApi } from '../queries';
import { api, call, client, ws } from '../api';
import { ConfirmDialog } from '../components/Dialog';
import { Badge, ErrorMessage, Loading } from '../components/Status';
import { BlockList } from '../content/Blocks';
import { STATUS_TONE } from '../content/PostsScreen';
import { formatTime } from '../hooks';
import { Link, replaceAddress, useRouter } from '../router';
import { can, canDraft, useSession } from '../session';
import { STATE_WORDS } from '../screens/reviews/review-api';
import type { Block, Post, WorkspaceSummary } from '../types';
import { ConflictPanel } from './ConflictPanel';
import { HistoryPanel } from './HistoryPanel';
import { LeaveQuestion } from './LeaveQuestion';
import { fieldsOf } from './post-fields';
import { useHeight, useMediaQuery } from './measure';
import { PostDetails } from './PostDetails';
import { PreviewOnSite } from './PreviewOnSite';
import { ReadabilityPanel } from './ReadabilityPanel';
import { ReviewLinks } from './ReviewLinks';
import { ReviewChanges } from './ReviewChanges';
import { ReviewPanel } from './ReviewPanel';
import { SeoPanel } from './SeoPanel';
import { SettingsPanel } from './SettingsPanel';
import { primaryAction, secondaryActions } from './studio-actions';
import { StudioBar } from './StudioBar';
import { SubmitForReview } from './SubmitForReview';
import { MarkdownField, PlainField } from './TextFields';
import { TitleField } from './TitleField';
import { LIMITS } from './model';
import { useFocusMode } from './useFocusMode';
import { useScores } from './useScores';
import { useSaveShortcut } from './useSaveShortcut';
import { conflictWords, saveWords } from './save-words';
import { useReviewActions } from './useReviewActions';
import { isLive, useStudio, type Kind } from './useStudio';
import { useWriterName } from './useWriterName';

// The writing surface (ProseMirror and the cards) is a chunk of its own, fetched with the studio's first render.
const DocumentEditor = lazy(() =>
  import('./document/DocumentEditor').then((module) => ({ default: module.DocumentEditor })),
);
import './studio.css';
import './studio-layout.css';

/** Where the settings sit beside the text rather than over it (studio-layout.css has the same width). */
const WIDE = '(min-width: 1024px)';

export default function Studio({
  workspace,
  kind,
  id,
}: {
  workspace: WorkspaceSummary;
  kind: Kind;
  id: string | null;
}) {
  const { navigate } = useRouter();
  const list = `/w/${workspace.id}/${kind}s`;
  // The address takes the new id (a reload opens this post) in place: a new page would move the focus to the
  // page's main region while the writer is typing.
  const studio = useStudio(workspace.id, kind, id, (created) => replaceAddress(`${list}/${created.id}/edit`));
  const { base, fields, update, save, issues } = studio;
  const [preview, setPreview] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const [reviewing, setReviewing] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  // A live post leaving the site (Unpublish, Archive) with changes that are not live: the move asked about.
  const [leaving, setLeaving] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const settings = useApi(keys.resource(workspace.id, 'settings'), () =>
    call(client.GET('/workspaces/{workspaceId}/settings', { params: { path: { workspaceId: workspace.id } } })),
  );
  const noun = kind === 'post' ? 'post' : 'page';
  const Noun = `${noun[0]!.toUpperCase()}${noun.slice(1)}`;

  const blocks = studio.blocks as Block[];
  const scores = useScores(fields, blocks);
  const wide = useMediaQuery(WIDE);
  const { focus, setFocus } = useFocusMode();
  useSaveShortcut(() => void studio.run());
  // Beside the text the settings start open; over it (a sheet) they start closed. Each width keeps its own.
  const [sideOpen, setSideOpen] = useState(true);
  const [sheetOpen, setSheetOpen] = useState(false);
  if ((wide || focus) && sheetOpen) setSheetOpen(false);
  const settingsOpen = !focus && (wide ? sideOpen : sheetOpen);
  const bar = useHeight();
  const otherWriter = useWriterName(workspace.id, studio.theirs?.by ?? null);
  const you = useSession().session.user.id;
  const reviewFlow = useReviewActions(workspace.id, kind, studio);
  const { review, submitting } = reviewFlow;

  const back = (
    <p className="breadcrumb">
      <Link to={list}>← All {noun}s</Link>
    </p>
  );
  if (studio.loading)
    return (
      <>
        {back}
        <h1>Edit {noun}</h1>
        <Loading label={`Loading the ${noun}…`} />
      </>
    );
  if (studio.loadError)
    return (
      <>
        {back}
        <h1>Edit {noun}</h1>
        <ErrorMessage error={studio.loadError} notFound={`This ${noun} does not exist in this workspace.`} />
      </>
    );

  const status = base?.status ?? 'draft';
  const live = isLive(base);
  const move = (to: string) => {
    if (live && to !== 'published' && studio.hasUnpublished()) setLeaving(to);
    else void studio.run({ status: to });
  };
  // A contributor (posts:draft without posts:write) writes drafts: no status move, no delete (the server agrees).
  const publisher = can(workspace, `${kind}s:write`);
  const writer = canDraft(workspace, `${kind}s`);
  // Only a draft is submitted; and once more after changes were asked for, an approval or a withdrawal.
  const submittable = writer && status === 'draft' && review.review?.state !== 'in_review';
  const submitLabel = review.review ? 'Resubmit for review' : 'Submit for review';
  // Who may not publish submits instead: for them that is the draft's way forward.
  const primary = publisher
    ? primaryAction(kind, status)
    : submittable
      ? { label: submitLabel, submit: true as const }
      : null;
  /**
   * The bar's review state, pressed: the settings open at the Review panel. Both ways of showing them are opened, so
   * a press between a resize and the render that follows it opens whichever layout renders next; wide, the sheet
   * closes itself.
   */
  const showReview = () => {
    setSideOpen(true);
    setSheetOpen(true);
    window.requestAnimationFrame(() => {
      const heading = document.getElementById('panel-review');
      heading?.focus();
      heading?.scrollIntoView({ block: 'nearest' });
    });
  };
  const others = publisher ? secondaryActions(kind, status) : [];
  const pattern = kind === 'post' ? settings.data?.postUrlPattern : settings.data?.pageUrlPattern;
  const siteUrl = settings.data?.siteUrl;
  const liveUrl =
    base && status === 'published' && pattern && siteUrl
      ? safeUrl(pattern.replace('{slug}', encodeURIComponent(base.slug)), siteUrl)
      : null;
  const bodyIssues = Object.fromEntries(
    Object.entries(issues)
      .filter(([path]) => path === '/bodyJson' || path.startsWith('/bodyJson/'))
      .map(([path, words]) => [path.slice('/bodyJson/'.length), words]),
  );
  const remove = async () => {
    if (!base) return;
    setDeleteError(null);
    try {
      await api.delete(ws(workspace.id, `/${kind}s/${base.id}`));
      void queryClient.invalidateQueries({ queryKey: keys.resource(workspace.id, `${kind}s`) });
      navigate(list);
    } catch (error) {
      setDeleteError(error);
    }
  };

  return (
    <div className="studio-page" data-focus={focus || undefined}>
      <div className="studio-head">
        {back}
        <h1>{base ? `Edit ${noun}` : `New ${noun}`}</h1>
        <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{status}</Badge>
      </div>

      <StudioBar
        ref={bar.ref}
        kind={kind}
        saveWords={saveWords(save, studio.pending !== null)}
        saveKind={save.kind}
        scores={scores}
        preview={preview}
        onPreview={setPreview}
        saveLabel={primary && primary.to === undefined && !primary.submit ? null : base ? 'Save' : 'Save draft'}
        onSave={() => void studio.run()}
        primary={primary}
        onPrimary={(action) =>
          action.submit
            ? reviewFlow.openSubmit()
            : void (action.to ? studio.run({ status: action.to }) : studio.publishChanges())
        }
        busy={save.kind === 'saving'}
        conflict={save.kind === 'conflict'}
        settingsOpen={settingsOpen}
        onSettings={(open) => (wide ? setSideOpen(open) : setSheetOpen(open))}
        focus={focus}
        onFocus={setFocus}
        live={live ? { changes: studio.pending !== null } : null}
        onReview={() => setReviewing(true)}
        onDiscard={() => setDiscarding(true)}
        reviewState={review.review ? { state: review.review.state, words: STATE_WORDS[review.review.state] } : null}
        onReviewState={showReview}
      />

      {base && !publisher && status !== 'draft' && (
        // Where a notification of an approval brings a writer who may only write drafts: what they may do now.
        <div className="notice">
          <p>
            This {noun} is {status}: only someone who may publish in this workspace can change it now.
          </p>
        </div>
      )}
      {studio.offered && (
        <div className="notice" role="region" aria-label="Unsaved changes found">
          <p>
            This device kept changes you had not saved yet ({formatTime(studio.offered.at)}). Restore them into the
            editor, or discard them?
          </p>
          <div className="actions">
            <button type="button" className="button-primary" onClick={studio.restoreOffered}>
              Restore unsaved changes
            </button>
            <button type="button" onClick={studio.discardOffered}>
              Discard them
            </button>
          </div>
        </div>
      )}
      {save.kind === 'conflict' && (
        <div className="notice notice-warn" role="alert">
          <p>{conflictWords(save.reason, noun, live)}</p>
          <div className="actions">
            <button type="button" className="button-primary" onClick={() => void studio.compare()}>
              Compare and merge
            </button>
            <button type="button" onClick={() => void studio.reloadFromServer()}>
              Reload
            </button>
            <button type="button" className="button-danger" onClick={() => void studio.overwrite()}>
              Overwrite
            </button>
          </div>
        </div>
      )}

      <div className="studio" data-side={settingsOpen && wide ? 'open' : undefined}>
        <div className="studio-main">
          {!preview ? (
            // Not a <form>: Chromium re-checks the validity of every control of a form on each keystroke in any
            // of them, which in a long body holds up every keystroke's paint.
            <div className="studio-form" role="group" aria-label={`The ${noun}`}>
              <TitleField value={fields.title} error={issues['/title']} onChange={(title) => update({ title })} />
              <h2 className="visually-hidden">Body</h2>
              {/* The preview's stylesheet (content.css), so the text is set as readers will see it. */}
              <div className="post studio-document">
                <Suspense fallback={<Loading label="Loading the editor…" />}>
                  <DocumentEditor
                    ref={studio.editor}
                    body={studio.body}
                    workspaceId={workspace.id}
                    errors={bodyIssues}
                    onChange={studio.bodyChanged}
                    label={`Body of the ${noun}`}
                  />
                </Suspense>
              </div>
            </div>
          ) : (
            <article className="post preview" aria-label="Preview">
              <h2 className="preview-title">{fields.title || '(untitled)'}</h2>
              {kind === 'post' && fields.excerpt && <p className="excerpt">{fields.excerpt}</p>}
              <BlockList blocks={blocks} siteUrl={siteUrl} />
            </article>
          )}
        </div>

        <SettingsPanel
          label={`${Noun} settings`}
          wide={wide}
          open={settingsOpen}
          below={bar.height}
          onClose={() => (wide ? setSideOpen(false) : setSheetOpen(false))}
        >
          {base && (review.review !== null || (writer && status === 'draft')) && (
            <ReviewPanel
              noun={noun}
              status={status}
              handle={review}
              you={you}
              publisher={publisher}
              writer={writer}
              // Not to a reviewer of someone else's draft: sending it back to themselves is no step forward.
              offerSubmit={
                submittable && !primary?.submit && (!review.review || review.review.submittedBy.userId === you)
              }
              onSubmit={reviewFlow.openSubmit}
              onApprove={reviewFlow.approve}
              done={reviewFlow.done}
              onDone={reviewFlow.setDone}
            />
          )}
          <section className="panel" aria-labelledby="panel-address">
            <h2 id="panel-address">{kind === 'post' ? 'Address and excerpt' : 'Address'}</h2>
            <PlainField
              label="Slug"
              value={fields.slug}
              error={issues['/slug']}
              hint={fields.slugEdited ? 'The last part of its address.' : 'Made from the title until you edit it.'}
              onChange={(slug) => update({ slug, slugEdited: true })}
            />
            {kind === 'post' && (
              <MarkdownField
                label="Excerpt"
                multiline
                value={fields.excerpt}
                maxLength={LIMITS.excerpt}
                error={issues['/excerpt']}
                onChange={(excerpt) => update({ excerpt })}
              />
            )}
          </section>
          <section className="panel" aria-labelledby="panel-publish">
            <h2 id="panel-publish">Publish</h2>
            {!publisher && (
              <p className="hint">
                You write drafts here; someone who may publish in this workspace publishes them once you submit one for
                review.
              </p>
            )}
            {others.length > 0 && (
              <div className="actions actions-stack">
                {others.map((action) => (
                  <button
                    key={action.to}
                    type="button"
                    disabled={save.kind === 'saving' || save.kind === 'conflict'}
                    onClick={() => move(action.to)}
                  >
                    {action.label}
                  </button>
                ))}
              </div>
            )}
            {base?.publishedAt && <p className="hint">Published {formatTime(base.publishedAt)}.</p>}
            {liveUrl && (
              <p>
                <a href={liveUrl} target="_blank" rel="noopener noreferrer">
                  View on site
                </a>
              </p>
            )}
            <PreviewOnSite
              workspaceId={workspace.id}
              kind={kind}
              pending={live}
              id={base?.id ?? null}
              save={save}
              run={() => studio.run()}
            />
            {publisher && <ReviewLinks workspaceId={workspace.id} kind={kind} id={base?.id ?? null} />}
            {base && publisher && (
              <p>
                <button type="button" className="button-danger" onClick={() => setDeleting(true)}>
                  Delete {noun}
                </button>
              </p>
            )}
          </section>
          {kind === 'post' && (
            <PostDetails
              workspaceId={workspace.id}
              postId={base?.id ?? null}
              post={base as Post | null}
              fields={fields}
              issues={issues}
              onChange={update}
            />
          )}
          <SeoPanel
            kind={kind}
            workspaceId={workspace.id}
            fields={fields}
            saved={(base?.seo as Record<string, unknown> | null | undefined) ?? null}
            scores={scores}
            jsonLd={base?.jsonLd ?? null}
            issues={issues}
            onChange={(seo) => update({ seo })}
          />
          {kind === 'post' && (
            <ReadabilityPanel
              blocks={blocks}
              onJump={(index) => {
                // On a phone the settings are a sheet over the text: it closes so the block can be seen.
                if (!wide) setSheetOpen(false);
                studio.editor.current?.jump(index);
              }}
            />
          )}
          {base && (
            <HistoryPanel
              workspaceId={workspace.id}
              kind={kind}
              resource={base}
              current={studio.current()}
              onRestored={studio.restored}
            />
          )}
        </SettingsPanel>
      </div>

      {studio.theirs && base && (
        <ConflictPanel
          kind={kind}
          mine={studio.current()}
          theirs={studio.theirs}
          who={otherWriter}
          onResolve={studio.resolveConflict}
          onCancel={studio.dismissConflict}
        />
      )}
      {submitting && (
        <SubmitForReview
          noun={noun}
          title={fields.title}
          again={review.review !== null}
          pending={submitting.pending}
          error={submitting.error ?? review.error}
          onSubmit={(note) => void reviewFlow.submit(note)}
          onCancel={reviewFlow.closeSubmit}
        />
      )}
      {reviewing && base && (
        <ReviewChanges
          kind={kind}
          live={fieldsOf(kind, base)}
          mine={studio.current()}
          onClose={() => setReviewing(false)}
        />
      )}
      {discarding && (
        <ConfirmDialog
          title="Discard your changes?"
          confirmLabel="Discard changes"
          danger
          onConfirm={() => {
            setDiscarding(false);
            void studio.discardChanges();
          }}
          onCancel={() => setDiscarding(false)}
        >
          <p>
            The editor goes back to the live {noun}, as readers see it now. Your changes that are not live are not kept
            anywhere.
          </p>
        </ConfirmDialog>
      )}
      {leaving && (
        <LeaveQuestion
          kind={kind}
          to={leaving}
          busy={save.kind === 'saving'}
          onWithChanges={() => {
            setLeaving(null);
            void studio.publishChanges(leaving);
          }}
          onWithoutChanges={() => {
            setLeaving(null);
            void studio.moveWithoutChanges(leaving);
          }}
          onCancel={() => setLeaving(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete this ${noun}?`}
          confirmLabel={`Delete ${noun}`}
          danger
          error={deleteError ? <ErrorMessage error={deleteError} /> : undefined}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(false)}
        >
          <p>
            “{fields.title || '(untitled)'}” disappears from the site and the API at once, and its address (
            {fields.slug}) becomes free for another {noun}. The dashboard cannot bring it back.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function safeUrl(relative: string, siteUrl: string): string | null {
  try {
    return new URL(relative, siteUrl.endsWith('/') ? siteUrl : `${siteUrl}/`).toString();
  } catch {
    return null;
  }
}
