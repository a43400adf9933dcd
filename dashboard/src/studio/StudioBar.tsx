import { forwardRef } from 'react';
import type { Scores } from './scoring';
import type { PrimaryAction } from './studio-actions';

interface Props {
  kind: 'post' | 'page';
  /** The save state in words, and its kind for the colour (an error or a conflict in red). */
  saveWords: string;
  saveKind: string;
  scores: Scores | null;
  preview: boolean;
  onPreview(on: boolean): void;
  /** The plain save ("Save", "Save draft"); null when the main button is the save ("Update"). */
  saveLabel: string | null;
  onSave(): void;
  primary: PrimaryAction | null;
  onPrimary(action: PrimaryAction): void;
  /** While a save runs nothing else starts; after a conflict only a save (the overwrite) may, and no Update. */
  busy: boolean;
  conflict: boolean;
  settingsOpen: boolean;
  onSettings(open: boolean): void;
  focus: boolean;
  onFocus(on: boolean): void;
  /**
   * Of a published post or page: whether it has changes that are not live (a pending set), which the bar says
   * and offers to review or discard; null for any other status.
   */
  live: { changes: boolean } | null;
  onReview(): void;
  onDiscard(): void;
  /** The draft's review state in words ("In review"), null when it was never submitted; pressed, the panel shows. */
  reviewState: { state: string; words: string } | null;
  onReviewState(): void;
}

const number = new Intl.NumberFormat('en');

/**
 * The studio's bar, kept in view at the top while the writer scrolls the text: how the save stands, how long
 * the text is and how it scores, and the buttons that act on the whole post. While the post is live, whether its
 * edits are (they are not until Update). Focus mode keeps the save state, the main button and the way out of it.
 */
export const StudioBar = forwardRef<HTMLDivElement, Props>(function StudioBar(props, ref) {
  const { kind, saveWords, saveKind, scores, preview, saveLabel, primary, busy, conflict, focus, live, reviewState } =
    props;
  return (
    <div ref={ref} className="studio-bar" role="region" aria-label="Writing tools">
      <p className={`save-state save-${saveKind}`} role="status">
        {saveWords}
      </p>
      {live && !focus && (
        <div className="studio-live">
          <p className={live.changes ? 'live-state live-state-changes' : 'live-state'}>
            {live.changes ? 'Published · unpublished changes' : 'Published'}
          </p>
          {live.changes && (
            <>
              <button type="button" className="button-small" onClick={props.onReview}>
                Review changes
              </button>
              <button type="button" className="button-small" disabled={busy} onClick={props.onDiscard}>
                Discard changes
              </button>
            </>
          )}
        </div>
      )}
      {reviewState && !focus && (
        <button
          type="button"
          className={`button-small review-state review-state-${reviewState.state}`}
          aria-controls="studio-settings"
          onClick={props.onReviewState}
        >
          <span className="visually-hidden">Review: </span>
          {reviewState.words}
        </button>
      )}
      {!focus && scores && (
        <p className="studio-stats">
          <span>{number.format(scores.words)} words</span>
          <span>{scores.readingMin} min read</span>
          {kind === 'post' && (
            <>
              <span>SEO {scores.seoScore}</span>
              <span>Readability {scores.readabilityScore}</span>
            </>
          )}
        </p>
      )}
      <div className="studio-bar-actions">
        {!focus && (
          <>
            <button type="button" aria-pressed={preview} onClick={() => props.onPreview(!preview)}>
              Preview
            </button>
            {saveLabel && (
              <button type="button" disabled={busy} onClick={props.onSave}>
                {saveLabel}
              </button>
            )}
          </>
        )}
        {primary && (
          <button
            type="button"
            className="button-primary"
            disabled={busy || (conflict && (primary.to !== undefined || primary.submit || live !== null))}
            onClick={() => props.onPrimary(primary)}
          >
            {primary.label}
          </button>
        )}
        {!focus && (
          <button
            type="button"
            aria-expanded={props.settingsOpen}
            aria-controls="studio-settings"
            onClick={() => props.onSettings(!props.settingsOpen)}
          >
            Settings
          </button>
        )}
        <button
          type="button"
          aria-pressed={focus}
          aria-keyshortcuts="Control+Shift+F"
          onClick={() => props.onFocus(!focus)}
        >
          Focus
        </button>
      </div>
    </div>
  );
});
