import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Email } from '../components/Email';
import { Badge, ErrorMessage } from '../components/Status';
import { formatTime } from '../hooks';
import { commentProblem, refusalWords, STATE_TONE, STATE_WORDS, type ReviewAct } from '../screens/reviews/review-api';
import { COMMENT_MAX_LENGTH, isOpen } from '../../../src/modules/reviews/review-rules.js';
import type { Review } from '../types';
import { ReviewThread } from './ReviewThread';
import type { ReviewHandle } from './useReview';
import './review.css';

interface Props {
  noun: string;
  /** The post's or page's status now: only a draft is submitted, or published by an approval. */
  status: string;
  handle: ReviewHandle;
  /** The signed-in member, to say "You" and to offer Withdraw to whoever submitted. */
  you: string;
  /** Holds `:write`: requests changes and approves. */
  publisher: boolean;
  /** Holds `:write` or `:draft`: comments, and submits. */
  writer: boolean;
  /** Submit offered here; not when it is the bar's main button already. */
  offerSubmit: boolean;
  onSubmit(): void;
  /** Approves after saving what is unsaved, and shows the copy published; true once it is done. */
  onApprove(publish: boolean, comment: string): Promise<boolean>;
  /** What the last act did, in words, for the status line. */
  done: string | null;
  onDone(words: string | null): void;
}

function Summary({ review, you }: { review: Review; you: string }) {
  const by = (person: Review['submittedBy']) =>
    person.userId !== null && person.userId === you ? 'you' : <Email address={person.email} />;
  return (
    <div className="review-summary">
      <Badge tone={STATE_TONE[review.state]}>{STATE_WORDS[review.state]}</Badge>
      <p className="hint">
        Submitted by {by(review.submittedBy)},{' '}
        <time dateTime={review.submittedAt}>{formatTime(review.submittedAt)}</time>.
        {review.state === 'approved' && review.decidedBy && (
          <>
            {' '}
            Approved by {by(review.decidedBy)}
            {review.resource.status === 'published' ? ' and published.' : '; not published yet.'}
          </>
        )}
      </p>
    </div>
  );
}

/**
 * The Review panel: the draft's review state, its thread, and what this member may do next. One comment box
 * serves every act: a comment, the words that come with a decision (required to request changes), a note on
 * withdrawing.
 */
export function ReviewPanel(props: Props) {
  const { noun, status, handle, you, publisher, writer, offerSubmit, done, onDone } = props;
  const { review, busy, error } = handle;
  const [text, setText] = useState('');
  const [missing, setMissing] = useState<string | null>(null);
  const boxId = useId();
  const problemId = useId();
  const box = useRef<HTMLTextAreaElement>(null);

  const open = review !== null && isOpen(review.state);
  const submitter = review !== null && review.submittedBy.userId === you;
  const problem = missing ?? commentProblem(error);

  const act = async (what: ReviewAct, words: string) => {
    setMissing(null);
    onDone(null);
    if (await handle.act(what)) {
      setText('');
      onDone(words);
    }
  };
  // A comment the server refused is fixed where it was typed.
  useEffect(() => {
    if (commentProblem(error)) box.current?.focus();
  }, [error]);
  const comment = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setMissing('Write your comment first.');
      box.current?.focus();
      return;
    }
    void act({ act: 'comment', body: text }, 'Comment added.');
  };
  const requestChanges = () => {
    if (!text.trim()) {
      setMissing('Say what should change: asking for changes needs a comment.');
      box.current?.focus();
      return;
    }
    void act({ act: 'request-changes', comment: text }, 'Changes requested. The writer is told.');
  };
  const approve = async (publish: boolean) => {
    setMissing(null);
    onDone(null);
    if (await props.onApprove(publish, text)) setText('');
  };

  const draft = status === 'draft';
  return (
    <section className="panel review-panel" aria-labelledby="panel-review">
      <h2 id="panel-review" tabIndex={-1}>
        Review
      </h2>
      {review ? (
        <Summary review={review} you={you} />
      ) : (
        <p className="hint">
          {draft
            ? `Not submitted for review. When it is ready, submit it: an editor reads it, then publishes it or asks for changes.`
            : `This ${noun} was not submitted for review.`}
        </p>
      )}
      {offerSubmit && (
        <p>
          <button type="button" disabled={busy !== null} onClick={props.onSubmit}>
            {review ? 'Resubmit for review' : 'Submit for review'}
          </button>
        </p>
      )}
      <p className="success-text" role="status">
        {done}
      </p>
      {handle.loadError !== null && <ErrorMessage error={handle.loadError} onRetry={handle.reload} />}
      {error !== null && !commentProblem(error) && (
        <p className="field-error" role="alert">
          {refusalWords(error, noun)}
        </p>
      )}
      {review && review.entries.length > 0 && <ReviewThread entries={review.entries} you={you} />}
      {review && writer && (
        <form className="review-form" onSubmit={comment} noValidate>
          <div className="field">
            <label htmlFor={boxId}>{publisher && open ? 'Comment or decision' : 'Comment'}</label>
            <textarea
              id={boxId}
              ref={box}
              rows={3}
              value={text}
              maxLength={COMMENT_MAX_LENGTH}
              aria-invalid={problem !== null || undefined}
              aria-describedby={problem !== null ? problemId : undefined}
              onChange={(event) => {
                setText(event.target.value);
                setMissing(null);
              }}
            />
            {problem !== null && (
              <p id={problemId} className="field-error">
                {problem}
              </p>
            )}
          </div>
          <div className="review-actions">
            <button type="submit" disabled={busy !== null}>
              {busy === 'comment' ? 'Adding…' : 'Comment'}
            </button>
            {publisher && open && (
              <>
                <button type="button" disabled={busy !== null} onClick={requestChanges}>
                  {busy === 'request-changes' ? 'Requesting…' : 'Request changes'}
                </button>
                <button
                  type="button"
                  className="button-primary"
                  disabled={busy !== null}
                  onClick={() => void approve(draft)}
                >
                  {busy === 'approve' ? 'Approving…' : draft ? 'Approve and publish' : 'Approve'}
                </button>
                {draft && (
                  <button type="button" disabled={busy !== null} onClick={() => void approve(false)}>
                    Approve without publishing
                  </button>
                )}
              </>
            )}
            {submitter && open && (
              <button
                type="button"
                className="button-danger-quiet"
                disabled={busy !== null}
                onClick={() => void act({ act: 'withdraw', comment: text }, 'Withdrawn from review.')}
              >
                {busy === 'withdraw' ? 'Withdrawing…' : 'Withdraw'}
              </button>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
